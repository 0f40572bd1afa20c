package dev.serverfs.bootstrap.ingress;

import dev.serverfs.bootstrap.config.ConfigurationException;
import dev.serverfs.bootstrap.config.Variables;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.ingress.HostPolicy;
import dev.serverfs.domain.ingress.SidecarPolicy;
import java.time.Duration;
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
        return parse(Variables.of(vars));
    }

    static IngressSettings parse(Variables vars) throws ConfigurationException {
        String host = vars.get("SERVERFS_HOST").orElse("127.0.0.1");
        int port = vars.strictPositive("SERVERFS_FILE_INGRESS_PORT", 65_535)
                .orElse(8081L)
                .intValue();
        boolean blob = vars.strictBool("SERVERFS_FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS", false);
        HostPolicy hosts;
        try {
            hosts = HostPolicy.fromConfiguration(
                    vars.get("SERVERFS_FILE_INGRESS_ALLOWED_HOSTS").orElse(""), blob);
        } catch (ServerFsException e) {
            throw new ConfigurationException(e.getMessage());
        }
        // Reference §8: the unified v0.9 variable first, then the v0.5 sidecar variable, then 8 MiB.
        Optional<Long> unified = vars.strictPositive("SERVERFS_MAX_BINARY_TRANSFER_BYTES", MAX_BYTES_CAP);
        Optional<Long> legacy = vars.strictPositive("SERVERFS_FILE_INGRESS_MAX_BYTES", MAX_BYTES_CAP);
        long maxBytes = unified.or(() -> legacy).orElse(DEFAULT_MAX_BYTES);
        // The sidecar never guesses: an invalid timeout is an error, not the default.
        Duration timeout =
                vars.strictSeconds("SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS", Duration.ofSeconds(30), 3600);
        int redirects = vars.strictIntInRange("SERVERFS_FILE_INGRESS_MAX_REDIRECTS", 0, MAX_REDIRECTS_CAP, 3);
        String logLevel = vars.get("SERVERFS_LOG_LEVEL").orElse("INFO");
        return new IngressSettings(host, port, new SidecarPolicy(hosts, maxBytes, redirects), timeout, logLevel);
    }
}
