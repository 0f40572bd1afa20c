package dev.serverfs.adapters.fs;

import static dev.serverfs.adapters.fs.linux.OpenFlags.AT_FDCWD;
import static dev.serverfs.adapters.fs.linux.OpenFlags.AT_SYMLINK_NOFOLLOW;

import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.domain.file.FileStat;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * ServerFS' own paths (the other workdirs' roots, the state, lock and socket directories, the {@code --env-file}) by
 * identity, {@code (st_dev, st_ino)}: {@code deniedEntries} reports each wherever it now lies in a workdir, under
 * whatever name (issue 25), so a provider view conceals it even after a task of an outer workdir renamed a directory
 * above it. Taken at start-up and again at each walk ({@link #and}), and kept: a path created, or replaced (an
 * editor's save of the env file), after start-up is known from the first submit that sees it at its name on, not
 * only by that name. A path that does not exist when taken is left out (the view conceals it by name). Immutable,
 * thread-safe.
 */
final class OwnPaths {
    static final OwnPaths NONE = new OwnPaths(new long[0], new long[0], 0);

    /**
     * How many identities are kept at most: the first ones taken (start-up's) are never dropped; beyond this, a new
     * one drops the oldest of the others, so a task that keeps re-creating a path at its name cannot grow the set
     * without end.
     */
    static final int MAX_IDENTITIES = 256;

    /** Their devices and inode numbers, index by index: a few, scanned without a boxed look-up per entry. */
    private final long[] devices;

    private final long[] inodes;
    /** How many of them, at the start, are never dropped. */
    private final int permanent;

    private OwnPaths(long[] devices, long[] inodes, int permanent) {
        this.devices = devices;
        this.inodes = inodes;
        this.permanent = permanent;
    }

    /** The identities of {@code paths} as they are now (a symlink followed: its target is the path's object). */
    static OwnPaths of(List<Path> paths) {
        long[] devices = new long[paths.size()];
        long[] inodes = new long[paths.size()];
        int n = 0;
        for (Path p : paths) {
            try {
                FileStat st = Syscalls.statx(AT_FDCWD, p.toAbsolutePath().toString(), 0);
                devices[n] = st.dev();
                inodes[n++] = st.ino();
            } catch (ErrnoException e) {
                // missing or unreadable now: concealed by name only
            }
        }
        return new OwnPaths(Arrays.copyOf(devices, n), Arrays.copyOf(inodes, n), n);
    }

    /** These identities and those {@code paths} have now ({@link #of}); this same set when none is new. */
    OwnPaths and(List<Path> paths) {
        OwnPaths now = of(paths);
        OwnPaths all = this;
        for (int i = 0; i < now.inodes.length; i++) {
            if (!all.isOwn(now.devices[i], now.inodes[i])) {
                all = all.with(now.devices[i], now.inodes[i]);
            }
        }
        return all;
    }

    private OwnPaths with(long device, long inode) {
        int drop = inodes.length >= Math.max(MAX_IDENTITIES, permanent + 1) ? 1 : 0;
        long[] d = new long[inodes.length + 1 - drop];
        long[] n = new long[d.length];
        System.arraycopy(devices, 0, d, 0, permanent);
        System.arraycopy(inodes, 0, n, 0, permanent);
        System.arraycopy(devices, permanent + drop, d, permanent, inodes.length - permanent - drop);
        System.arraycopy(inodes, permanent + drop, n, permanent, inodes.length - permanent - drop);
        d[d.length - 1] = device;
        n[n.length - 1] = inode;
        return new OwnPaths(d, n, permanent);
    }

    /**
     * Whether the directory open as {@code fd} is one of them: its own identity, so a directory mounted there is
     * recognised too (its {@code d_ino} is the covered directory's).
     */
    boolean isOwnDirectory(int fd) {
        if (inodes.length == 0) {
            return false;
        }
        try {
            return isOwn(Syscalls.fstat(fd));
        } catch (ErrnoException e) {
            return false;
        }
    }

    /**
     * Whether the entry {@code d} of the directory {@code dirFd}, not a directory, is one of them (a hard link too):
     * its {@code d_ino} compared first, so that only a match costs a system call.
     */
    boolean isOwnEntry(int dirFd, Dirents.Dirent d) {
        if (!hasInode(d.ino())) {
            return false;
        }
        try {
            return isOwn(Syscalls.statx(dirFd, d.name(), AT_SYMLINK_NOFOLLOW));
        } catch (ErrnoException e) {
            return false;
        }
    }

    private boolean hasInode(long ino) {
        for (long i : inodes) {
            if (i == ino) {
                return true;
            }
        }
        return false;
    }

    private boolean isOwn(FileStat st) {
        return isOwn(st.dev(), st.ino());
    }

    private boolean isOwn(long device, long inode) {
        for (int i = 0; i < inodes.length; i++) {
            if (inodes[i] == inode && devices[i] == device) {
                return true;
            }
        }
        return false;
    }
}
