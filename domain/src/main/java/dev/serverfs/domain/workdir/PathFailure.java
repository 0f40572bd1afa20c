package dev.serverfs.domain.workdir;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;

/**
 * Builds filesystem tool failures in the reference's shape {@code <workdir>:<path> — <message>} (contract
 * reference §2.0). Control characters in an agent-supplied path are shown as {@code ?} and unpaired surrogates as
 * U+FFFD, so a message stays one printable line (see {@link AgentText#printable}).
 */
public final class PathFailure {

    private PathFailure() {}

    public static ServerFsException of(ErrorCode code, String alias, String path, String message) {
        return new ServerFsException(code, label(alias, path), message);
    }

    /** {@code <workdir>:<path>} with control characters and unpaired surrogates replaced. */
    public static String label(String alias, String path) {
        return alias + ':' + AgentText.printable(path);
    }
}
