package dev.serverfs.adapters.fs;

import static dev.serverfs.adapters.fs.linux.OpenFlags.AT_FDCWD;
import static dev.serverfs.adapters.fs.linux.OpenFlags.AT_SYMLINK_NOFOLLOW;

import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.domain.file.FileStat;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * ServerFS' own paths (the other workdirs' roots, the state, lock and socket directories, the {@code --env-file}) by
 * identity, {@code (st_dev, st_ino)}, taken once (at start-up): {@code deniedEntries} reports each wherever it now
 * lies in a workdir, under whatever name (issue 25), so a provider view conceals it even after a task of an outer
 * workdir renamed a directory above it. A path that does not exist when taken is left out (the view conceals it by
 * name). Immutable, thread-safe.
 */
final class OwnPaths {
    static final OwnPaths NONE = new OwnPaths(Set.of(), Set.of());

    private record Identity(long dev, long ino) {}

    private final Set<Identity> identities;
    /** Their inode numbers: compared with an entry's {@code d_ino} first, so that only a match costs a system call. */
    private final Set<Long> inodes;

    private OwnPaths(Set<Identity> identities, Set<Long> inodes) {
        this.identities = Set.copyOf(identities);
        this.inodes = Set.copyOf(inodes);
    }

    /** The identities of {@code paths} as they are now (a symlink followed: its target is the path's object). */
    static OwnPaths of(List<Path> paths) {
        Set<Identity> identities = new HashSet<>();
        Set<Long> inodes = new HashSet<>();
        for (Path p : paths) {
            try {
                FileStat st = Syscalls.statx(AT_FDCWD, p.toAbsolutePath().toString(), 0);
                identities.add(new Identity(st.dev(), st.ino()));
                inodes.add(st.ino());
            } catch (ErrnoException e) {
                // missing or unreadable now: concealed by name only
            }
        }
        return new OwnPaths(identities, inodes);
    }

    boolean isEmpty() {
        return identities.isEmpty();
    }

    /**
     * Whether the directory open as {@code fd} is one of them: its own identity, so a directory mounted there is
     * recognised too (its {@code d_ino} is the covered directory's).
     */
    boolean isOwnDirectory(int fd) {
        if (identities.isEmpty()) {
            return false;
        }
        try {
            FileStat st = Syscalls.fstat(fd);
            return identities.contains(new Identity(st.dev(), st.ino()));
        } catch (ErrnoException e) {
            return false;
        }
    }

    /** Whether the entry {@code d} of the directory {@code dirFd}, not a directory, is one of them (a hard link too). */
    boolean isOwnEntry(int dirFd, Dirents.Dirent d) {
        if (!inodes.contains(d.ino())) {
            return false;
        }
        try {
            FileStat st = Syscalls.statx(dirFd, d.name(), AT_SYMLINK_NOFOLLOW);
            return identities.contains(new Identity(st.dev(), st.ino()));
        } catch (ErrnoException e) {
            return false;
        }
    }
}
