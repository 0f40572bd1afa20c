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
 * bounds the {@code --version} probe), and the environment the children's allow-listed variables come from (normally
 * the server's own). {@link #toString} shows no path and no variable.
 */
public record CodexSettings(
        String bin, Optional<Path> codexHome, Duration requestTimeout, Map<String, String> environment) {
    public static final String DEFAULT_BIN = "codex";
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

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
    }

    @Override
    public String toString() {
        return "CodexSettings[requestTimeout=" + requestTimeout + "]";
    }
}
