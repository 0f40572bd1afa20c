package dev.serverfs.domain.error;

import java.util.Objects;
import java.util.Optional;

/**
 * The only exception that crosses a module boundary. It carries its detail as structure: the {@link ErrorCode},
 * optionally the label of what failed ({@code <workdir>:<path>} for a filesystem failure, contract reference §2.0),
 * and a short message. Every part is agent-safe: it never contains host paths, URLs, file ids, prompts or file
 * contents, because the MCP edge shows it as {@code CODE: message}, where the message is {@code label — message}
 * when there is a label.
 */
public final class ServerFsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final String label;
    private final String detail;

    public ServerFsException(ErrorCode code, String message) {
        this(code, null, message);
    }

    /** A failure about {@code label} (e.g. {@code docs:notes.txt}); {@code null} for none. */
    public ServerFsException(ErrorCode code, String label, String message) {
        super(compose(label, Objects.requireNonNull(message, "message")), null, false, false);
        this.code = Objects.requireNonNull(code, "code");
        this.label = label;
        this.detail = message;
    }

    private static String compose(String label, String message) {
        return label == null ? message : label + " — " + message;
    }

    public ErrorCode code() {
        return code;
    }

    /** What the failure is about, when it is about one workdir path. */
    public Optional<String> label() {
        return Optional.ofNullable(label);
    }

    /** The message without the label. */
    public String detail() {
        return detail;
    }

    /** The agent-visible text, {@code CODE: message}. */
    public String agentText() {
        return code.wire() + ": " + getMessage();
    }
}
