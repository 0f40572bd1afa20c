package dev.serverfs.adapters.fs;

import static dev.serverfs.adapters.fs.linux.OpenFlags.AT_SYMLINK_NOFOLLOW;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_CLOEXEC;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_DIRECTORY;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_NOFOLLOW;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_PATH;

import dev.serverfs.adapters.fs.linux.Errno;
import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.OpenFlags;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.workdir.WorkdirPath;
import java.util.List;

/**
 * Opens paths beneath a root descriptor so the kernel refuses symlinks and escapes: one
 * {@code openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)}, or, where that call is
 * unavailable, a component walk with {@code openat(O_PATH | O_DIRECTORY | O_NOFOLLOW)} per parent. Both give the
 * same codes: the walk also classifies every ENOTDIR (symlink → {@code SYMLINK_NOT_ALLOWED}, anything else →
 * {@code NOT_A_DIRECTORY}) by an {@code lstat} of the component that failed.
 */
final class Confinement {

    private final boolean openat2;

    Confinement(boolean openat2) {
        this.openat2 = openat2;
    }

    boolean usesOpenat2() {
        return openat2;
    }

    /**
     * Opens {@code path} beneath {@code root} with {@code flags} ({@code O_NOFOLLOW | O_CLOEXEC} are added); an
     * ENOTDIR on the final component means {@code NOT_A_DIRECTORY} when {@code flags} contain {@code O_DIRECTORY}.
     */
    int open(int root, WorkdirPath path, int flags, String label) {
        int all = flags | O_NOFOLLOW | O_CLOEXEC;
        if (path.isRoot()) {
            try {
                return Syscalls.openat(root, ".", all & ~O_NOFOLLOW, 0);
            } catch (ErrnoException e) {
                throw FsFailures.fromErrno(e.errno(), label);
            }
        }
        if (openat2) {
            try {
                return Syscalls.openat2(root, path.display(), all, 0, OpenFlags.RESOLVE_CONFINED);
            } catch (ErrnoException e) {
                if (e.errno() != Errno.ENOTDIR && e.errno() != Errno.ENAMETOOLONG) {
                    throw FsFailures.fromErrno(e.errno(), label);
                }
                // ENOTDIR: which component is not a directory, and is it a symlink? The walk answers precisely.
                // ENAMETOOLONG: the whole path is over PATH_MAX, yet each component may be a valid name (a deep
                // tree that find_files reports); the walk opens one component at a time, as the reference does.
            }
        }
        return walk(root, path, all, label);
    }

    /** {@code O_PATH} descriptor of the parent directory of a non-root path. */
    int openParent(int root, WorkdirPath path, String label) {
        return open(root, path.parent(), O_PATH | O_DIRECTORY, label);
    }

    private static int walk(int root, WorkdirPath path, int flags, String label) {
        List<String> parts = path.parts();
        int current = root;
        try {
            for (int i = 0; i < parts.size() - 1; i++) {
                int next;
                try {
                    next = Syscalls.openat(current, parts.get(i), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
                } catch (ErrnoException e) {
                    throw classify(current, parts.get(i), e.errno(), true, label);
                }
                if (current != root) {
                    Syscalls.close(current);
                }
                current = next;
            }
            try {
                return Syscalls.openat(current, path.name(), flags, 0);
            } catch (ErrnoException e) {
                throw classify(current, path.name(), e.errno(), (flags & O_DIRECTORY) != 0, label);
            }
        } finally {
            if (current != root) {
                Syscalls.close(current);
            }
        }
    }

    private static RuntimeException classify(int dir, String name, int errno, boolean wantDirectory, String label) {
        if (errno == Errno.ENOTDIR || errno == Errno.ELOOP) {
            try {
                FileStat st = Syscalls.statx(dir, name, AT_SYMLINK_NOFOLLOW);
                if (st.isSymlink()) {
                    return FsFailures.of(ErrorCode.SYMLINK_NOT_ALLOWED, label);
                }
                return FsFailures.of(wantDirectory ? ErrorCode.NOT_A_DIRECTORY : ErrorCode.ACCESS_DENIED, label);
            } catch (ErrnoException again) {
                return FsFailures.fromErrno(again.errno(), label);
            }
        }
        return FsFailures.fromErrno(errno, label);
    }

    /**
     * Whether {@code openat2} works here: ENOSYS (old kernel) or EPERM (seccomp profiles) mean it does not.
     * Probes with an {@code O_PATH} open of {@code /}.
     */
    static boolean openat2Available() {
        try {
            int fd = Syscalls.openat2(OpenFlags.AT_FDCWD, "/", O_PATH | O_CLOEXEC, 0, 0);
            Syscalls.close(fd);
            return true;
        } catch (ErrnoException e) {
            return false;
        }
    }
}
