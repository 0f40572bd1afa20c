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

    static ServerFsException fromErrno(int errno, String label) {
        return of(code(errno), label);
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
