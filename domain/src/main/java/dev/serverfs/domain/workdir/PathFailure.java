package dev.serverfs.domain.workdir;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;

/**
 * Builds filesystem tool failures in the reference's shape {@code <workdir>:<path> — <message>} (contract
 * reference §2.0). Control characters in an agent-supplied path are shown as {@code ?} so a message stays one
 * printable line.
 */
public final class PathFailure {

    private PathFailure() {}

    public static ServerFsException of(ErrorCode code, String alias, String path, String message) {
        return new ServerFsException(code, label(alias, path) + " — " + message);
    }

    /** {@code <workdir>:<path>} with control characters replaced. */
    public static String label(String alias, String path) {
        StringBuilder out = new StringBuilder(alias.length() + path.length() + 1)
                .append(alias)
                .append(':');
        path.codePoints().forEach(cp -> out.appendCodePoint(cp < 0x20 || cp == 0x7f ? '?' : cp));
        return out.toString();
    }
}
