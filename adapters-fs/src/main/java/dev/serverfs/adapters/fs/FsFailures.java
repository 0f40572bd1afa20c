package dev.serverfs.adapters.fs;

import dev.serverfs.adapters.fs.linux.Errno;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.PathFailure;

/** The errno → code table of contract reference §2.0, and the failure messages of this adapter. */
final class FsFailures {

    private FsFailures() {}

    static ServerFsException of(ErrorCode code, String label) {
        return new ServerFsException(code, label, message(code));
    }

    static String label(String alias, String path) {
        return PathFailure.label(alias, path);
    }

    /**
     * The code for an errno whose meaning does not depend on context; ENOTDIR and EISDIR are decided by the
     * caller, which knows whether a file or a directory was wanted.
     */
    static ErrorCode code(int errno) {
        return switch (errno) {
            case Errno.ELOOP -> ErrorCode.SYMLINK_NOT_ALLOWED;
            case Errno.EXDEV -> ErrorCode.PATH_OUTSIDE_WORKDIR;
            case Errno.ENOENT -> ErrorCode.PATH_NOT_FOUND;
            case Errno.ENOTDIR -> ErrorCode.NOT_A_DIRECTORY;
            case Errno.EISDIR -> ErrorCode.NOT_A_FILE;
            case Errno.ENXIO -> ErrorCode.UNSUPPORTED_FILE_TYPE;
            case Errno.EMFILE, Errno.ENFILE -> ErrorCode.RESOURCE_EXHAUSTED;
            default -> ErrorCode.ACCESS_DENIED;
        };
    }

    /**
     * The code of {@code errno} with its message; an error that is no permission problem but still
     * {@code ACCESS_DENIED} (reference §2.0: "other") says what it was, not "permission denied".
     */
    static ServerFsException fromErrno(int errno, String label) {
        ErrorCode code = code(errno);
        if (code == ErrorCode.ACCESS_DENIED && errno != Errno.EACCES && errno != Errno.EPERM) {
            return new ServerFsException(code, label, strerror(errno));
        }
        return of(code, label);
    }

    /** glibc's text of the errnos a file operation meets (never a path), {@code errno N} for any other. */
    static String strerror(int errno) {
        return switch (errno) {
            case Errno.ENOSPC -> "No space left on device";
            case Errno.EDQUOT -> "Disk quota exceeded";
            case Errno.EROFS -> "Read-only file system";
            case Errno.EIO -> "Input/output error";
            case Errno.EXDEV -> "Invalid cross-device link";
            case Errno.EMLINK -> "Too many links";
            case Errno.EFBIG -> "File too large";
            case Errno.EBUSY -> "Device or resource busy";
            case Errno.ENOENT -> "No such file or directory";
            case Errno.EEXIST -> "File exists";
            case Errno.ENAMETOOLONG -> "File name too long";
            case Errno.EINVAL -> "Invalid argument";
            case Errno.ENODEV -> "No such device";
            case Errno.ETXTBSY -> "Text file busy";
            case Errno.EOPNOTSUPP -> "Operation not supported";
            case Errno.ENOTEMPTY -> "Directory not empty";
            case Errno.EAGAIN -> "Resource temporarily unavailable";
            case Errno.EINTR -> "Interrupted system call";
            case Errno.ESRCH -> "No such process";
            default -> "errno " + errno;
        };
    }

    private static String message(ErrorCode code) {
        return switch (code) {
            case SYMLINK_NOT_ALLOWED -> "symlinks are not allowed";
            case PATH_OUTSIDE_WORKDIR -> "path escapes the workdir";
            case PATH_NOT_FOUND -> "path not found";
            case NOT_A_DIRECTORY -> "not a directory";
            case NOT_A_FILE -> "not a regular file";
            case UNSUPPORTED_FILE_TYPE -> "unsupported file type";
            case RESOURCE_EXHAUSTED -> "too many open files";
            case ROOT_MUTATION_NOT_ALLOWED -> "the workdir root cannot be mutated";
            default -> "permission denied";
        };
    }
}
