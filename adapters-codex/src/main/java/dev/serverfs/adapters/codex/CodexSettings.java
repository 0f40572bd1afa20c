package dev.serverfs.adapters.codex;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How to run Codex (reference §4.5 {@code codex}, §9.3, for a stdio child): the executable ({@code codex} on {@code
 * PATH} by default), the {@code CODEX_HOME} to give the child (empty: the caller's own {@code CODEX_HOME}, if set,
 * else Codex's default {@code ~/.codex}), the per-request timeout ({@code request_timeout_seconds}, 10 s; it also
 * bounds the {@code --version} probe), the longest JSON-RPC line ({@code max_message_bytes}), and the environment the children's allow-listed variables come from (normally
 * the server's own). {@link #toString} shows no path and no variable.
 */
public record CodexSettings(
        String bin,
        Optional<Path> codexHome,
        Duration requestTimeout,
        int maxMessageBytes,
        Map<String, String> environment) {
    /** The setting of the executable (the reference's {@code SERVERFS_CODEX_BIN} is its alias). */
    public static final String BIN = "SERVERFS_AGENT_CODEX_BIN";
    /** The setting of {@link #codexHome}. */
    public static final String HOME = "SERVERFS_CODEX_HOME";
    /** The setting of {@link #requestTimeout}, in seconds. */
    public static final String REQUEST_TIMEOUT_SECONDS = "SERVERFS_CODEX_REQUEST_TIMEOUT_SECONDS";

    public static final String DEFAULT_BIN = "codex";
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** Reference §4.5 {@code max_message_bytes} (rendered as this constant, §9.3): the longest line accepted. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

    /** With the reference's message bound. */
    public CodexSettings(
            String bin, Optional<Path> codexHome, Duration requestTimeout, Map<String, String> environment) {
        this(bin, codexHome, requestTimeout, DEFAULT_MAX_MESSAGE_BYTES, environment);
    }

    public CodexSettings {
        Objects.requireNonNull(bin, "bin");
        Objects.requireNonNull(codexHome, "codexHome");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        environment = Map.copyOf(environment);
        if (bin.isBlank()) {
            throw new IllegalArgumentException("bin must not be blank");
        }
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("requestTimeout must be positive");
        }
        if (maxMessageBytes < 1024) {
            throw new IllegalArgumentException("maxMessageBytes must be at least 1024");
        }
    }

    @Override
    public String toString() {
        return "CodexSettings[requestTimeout=" + requestTimeout + "]";
    }
}
