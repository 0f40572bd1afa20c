package dev.serverfs.adapters.claude;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How to run Claude Code (reference §4.5 {@code claude}, §9.3): the executable ({@code claude} on {@code PATH} by
 * default), the bound of the {@code --version} probe, and the environment the children's allow-listed variables
 * come from (normally the server's own). {@link #toString} shows no path and no variable.
 */
public record ClaudeSettings(String bin, Duration probeTimeout, Map<String, String> environment) {
    /** The setting of the executable (the reference's {@code SERVERFS_CLAUDE_BIN} is its alias). */
    public static final String BIN = "SERVERFS_AGENT_CLAUDE_BIN";
    /** The setting of {@link #probeTimeout}, in seconds. */
    public static final String PROBE_TIMEOUT_SECONDS = "SERVERFS_CLAUDE_PROBE_TIMEOUT_SECONDS";

    public static final String DEFAULT_BIN = "claude";
    public static final Duration DEFAULT_PROBE_TIMEOUT = Duration.ofSeconds(5);

    public ClaudeSettings {
        Objects.requireNonNull(bin, "bin");
        Objects.requireNonNull(probeTimeout, "probeTimeout");
        environment = Map.copyOf(environment);
        if (bin.isBlank()) {
            throw new IllegalArgumentException("bin must not be blank");
        }
        if (probeTimeout.isNegative() || probeTimeout.isZero()) {
            throw new IllegalArgumentException("probeTimeout must be positive");
        }
    }

    @Override
    public String toString() {
        return "ClaudeSettings[probeTimeout=" + probeTimeout + "]";
    }
}
