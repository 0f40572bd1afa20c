package dev.serverfs.bootstrap.ingress;

import dev.serverfs.bootstrap.config.ConfigurationException;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.ingress.HostPolicy;
import dev.serverfs.domain.ingress.SidecarPolicy;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The sidecar's validated settings (v0.5 plan §11, contract reference §8 and §9.4). Only the sidecar's own
 * variables are read; workdir variables are ignored because the sidecar is deliberately workdir-unaware.
 *
 * @param host bind address, {@code SERVERFS_HOST} (default {@code 127.0.0.1})
 * @param port {@code SERVERFS_FILE_INGRESS_PORT} (default 8081)
 * @param policy allowed hosts, byte ceiling and redirect cap
 * @param fetchTimeout connect and per-read timeout, {@code SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS} (30)
 * @param logLevel {@code SERVERFS_LOG_LEVEL}
 */
record IngressSettings(String host, int port, SidecarPolicy policy, Duration fetchTimeout, String logLevel) {

    static final long DEFAULT_MAX_BYTES = 8_388_608;
    /** Same cap as the MCP side's binary limit: whole files are held in memory. */
    static final long MAX_BYTES_CAP = 1L << 30;

    static final int MAX_REDIRECTS_CAP = 20;

    IngressSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(fetchTimeout, "fetchTimeout");
        Objects.requireNonNull(logLevel, "logLevel");
    }

    /** Parses and validates; every reason names the variable, never its value. */
    static IngressSettings parse(Map<String, String> vars) throws ConfigurationException {
        String host = get(vars, "SERVERFS_HOST").orElse("127.0.0.1");
        int port = positive(vars, "SERVERFS_FILE_INGRESS_PORT", 65_535)
                .orElse(8081L)
                .intValue();
        boolean blob = strictBool(vars, "SERVERFS_FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS", false);
        HostPolicy hosts;
        try {
            hosts = HostPolicy.fromConfiguration(
                    get(vars, "SERVERFS_FILE_INGRESS_ALLOWED_HOSTS").orElse(""), blob);
        } catch (ServerFsException e) {
            throw new ConfigurationException(e.getMessage());
        }
        // Reference §8: the unified v0.9 variable first, then the v0.5 sidecar variable, then 8 MiB.
        Optional<Long> unified = positive(vars, "SERVERFS_MAX_BINARY_TRANSFER_BYTES", MAX_BYTES_CAP);
        Optional<Long> legacy = positive(vars, "SERVERFS_FILE_INGRESS_MAX_BYTES", MAX_BYTES_CAP);
        long maxBytes = unified.or(() -> legacy).orElse(DEFAULT_MAX_BYTES);
        Duration timeout = seconds(vars, "SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS", Duration.ofSeconds(30));
        int redirects = nonNegative(vars, "SERVERFS_FILE_INGRESS_MAX_REDIRECTS", MAX_REDIRECTS_CAP, 3);
        String logLevel = get(vars, "SERVERFS_LOG_LEVEL").orElse("INFO");
        return new IngressSettings(host, port, new SidecarPolicy(hosts, maxBytes, redirects), timeout, logLevel);
    }

    private static Optional<String> get(Map<String, String> vars, String name) {
        String value = vars.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }

    /** Reference §9 strict bool. */
    private static boolean strictBool(Map<String, String> vars, String name, boolean defaultValue)
            throws ConfigurationException {
        Optional<String> raw = get(vars, name);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        return switch (raw.get().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw new ConfigurationException(name + " must be true or false");
        };
    }

    /** Reference §9 strict positive int, also bounded above. */
    private static Optional<Long> positive(Map<String, String> vars, String name, long max)
            throws ConfigurationException {
        Optional<String> raw = get(vars, name);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        long value;
        try {
            value = Long.parseLong(raw.get());
        } catch (NumberFormatException e) {
            throw new ConfigurationException(name + " must be a positive integer");
        }
        if (value <= 0 || value > max) {
            throw new ConfigurationException(name + " must be a positive integer no larger than " + max);
        }
        return Optional.of(value);
    }

    private static int nonNegative(Map<String, String> vars, String name, int max, int defaultValue)
            throws ConfigurationException {
        Optional<String> raw = get(vars, name);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        try {
            int value = Integer.parseInt(raw.get());
            if (value >= 0 && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigurationException(name + " must be an integer from 0 to " + max);
    }

    /** Positive seconds, fractions allowed; anything else is an error (the sidecar never guesses). */
    private static Duration seconds(Map<String, String> vars, String name, Duration defaultValue)
            throws ConfigurationException {
        Optional<String> raw = get(vars, name);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        try {
            BigDecimal seconds = new BigDecimal(raw.get());
            if (seconds.signum() > 0 && seconds.compareTo(BigDecimal.valueOf(3600)) <= 0) {
                Duration value = Duration.ofNanos(seconds.movePointRight(9).longValue());
                if (!value.isZero()) {
                    return value;
                }
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // reported below
        }
        throw new ConfigurationException(name + " must be a number of seconds greater than 0 and at most 3600");
    }
}
