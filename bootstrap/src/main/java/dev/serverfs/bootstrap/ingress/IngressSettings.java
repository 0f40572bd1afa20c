package dev.serverfs.bootstrap.ingress;

import dev.serverfs.bootstrap.config.ConfigurationException;
import dev.serverfs.bootstrap.config.KnownVariables;
import dev.serverfs.bootstrap.config.ServerSettings;
import dev.serverfs.bootstrap.config.Variables;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.ingress.HostPolicy;
import dev.serverfs.domain.ingress.SidecarPolicy;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The sidecar's validated settings (v0.5 plan §11, contract reference §8 and §9.4), read through the settings
 * catalogue ({@link ServerSettings}). Only the sidecar's own variables are read; workdir variables are ignored because the sidecar is deliberately workdir-unaware.
 *
 * @param host bind address, {@code SERVERFS_HOST} (default {@code 127.0.0.1})
 * @param port {@code SERVERFS_FILE_INGRESS_PORT} (default 8081)
 * @param policy allowed hosts, byte ceiling and redirect cap
 * @param fetchTimeout connect and per-read timeout and the bound of one whole fetch,
 *     {@code SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS} (30)
 * @param logLevel {@code SERVERFS_LOG_LEVEL}
 * @param servedAs the host of {@code SERVERFS_FILE_INGRESS_URL} when it is set (the same env file as serve's):
 *     a name requests may carry in {@code Host} besides the loopback names, the Compose service and the bind address
 */
record IngressSettings(
        String host,
        int port,
        SidecarPolicy policy,
        Duration fetchTimeout,
        String logLevel,
        Optional<String> servedAs) {

    IngressSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(servedAs, "servedAs");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(fetchTimeout, "fetchTimeout");
        Objects.requireNonNull(logLevel, "logLevel");
    }

    /** Parses and validates; every reason names the variable, never its value. */
    static IngressSettings parse(Map<String, String> vars) throws ConfigurationException {
        return parse(Variables.of(vars));
    }

    static IngressSettings parse(Variables vars) throws ConfigurationException {
        // As for serve: a misspelt name (SERVERFS_FILE_INGRESS_MAX_REDIRECT) must not silently leave the default.
        KnownVariables.rejectNearMisses(vars);
        String host = ServerSettings.HOST.get(vars);
        int port = ServerSettings.FILE_INGRESS_PORT.get(vars);
        boolean blob = ServerSettings.FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS.get(vars);
        HostPolicy hosts;
        try {
            hosts = HostPolicy.fromConfiguration(
                    ServerSettings.FILE_INGRESS_ALLOWED_HOSTS.find(vars).orElse(""), blob);
        } catch (ServerFsException e) {
            throw new ConfigurationException(e.getMessage());
        }
        // Reference §8: the unified v0.9 variable first, then the v0.5 sidecar variable, then 8 MiB.
        Optional<Long> unified = ServerSettings.MAX_BINARY_TRANSFER_BYTES.find(vars);
        Optional<Long> legacy = ServerSettings.FILE_INGRESS_MAX_BYTES.find(vars);
        long maxBytes = unified.or(() -> legacy).orElse(ServerSettings.MAX_BINARY_TRANSFER_BYTES.defaultValue());
        // The sidecar never guesses: an invalid timeout is an error, not the default.
        Duration timeout = ServerSettings.FILE_INGRESS_FETCH_TIMEOUT_SECONDS.get(vars);
        int redirects = ServerSettings.FILE_INGRESS_MAX_REDIRECTS.get(vars);
        String logLevel = ServerSettings.LOG_LEVEL.get(vars);
        Optional<String> servedAs = ServerSettings.FILE_INGRESS_URL
                .find(vars)
                .map(url -> URI.create(url).getHost().toLowerCase(Locale.ROOT));
        return new IngressSettings(
                host, port, new SidecarPolicy(hosts, maxBytes, redirects), timeout, logLevel, servedAs);
    }
}
