package dev.serverfs.bootstrap.config;

import java.util.Objects;

/**
 * A configuration the process must refuse to start with (contract reference §1.5). The {@link #reason()} is safe
 * to print and log: it names the offending variable but never contains a host path, a value that might be a
 * secret, or file contents.
 */
public final class ConfigurationException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String reason;

    public ConfigurationException(String reason) {
        super(Objects.requireNonNull(reason, "reason"), null, false, false);
        this.reason = reason;
    }

    /** The agent-safe reason, printed as {@code ServerFS: configuration error: <reason>}. */
    public String reason() {
        return reason;
    }
}
