package dev.serverfs.domain.error;

import java.util.Objects;

/**
 * The only exception that crosses a module boundary. Its message is agent-safe: it never contains
 * host paths, URLs, file ids, prompts or file contents, because the MCP edge shows it as
 * {@code CODE: message}.
 */
public final class ServerFsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public ServerFsException(ErrorCode code, String message) {
        super(Objects.requireNonNull(message, "message"), null, false, false);
        this.code = Objects.requireNonNull(code, "code");
    }

    public ErrorCode code() {
        return code;
    }

    /** The agent-visible text, {@code CODE: message}. */
    public String agentText() {
        return code.wire() + ": " + getMessage();
    }
}
