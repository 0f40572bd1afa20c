package dev.serverfs.bootstrap.config;

import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The validated, immutable configuration of one ServerFS process, built by the configuration loader from the
 * environment and an optional {@code .env} file (contract reference §9, CONTRACT.md §4). Never printed as a
 * whole: it holds host paths and secrets.
 */
public record ServerFsConfig(
        String logLevel,
        Network network,
        ServerLimits limits,
        Workdirs workdirs,
        FileIngress fileIngress,
        Agent agent) {

    public ServerFsConfig {
        Objects.requireNonNull(logLevel, "logLevel");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(workdirs, "workdirs");
        Objects.requireNonNull(fileIngress, "fileIngress");
        Objects.requireNonNull(agent, "agent");
    }

    /** {@code SERVERFS_HOST}, {@code SERVERFS_PORT}, allow-lists and the optional bearer token (CONTRACT.md §4). */
    public record Network(
            String host, int port, Set<String> allowedHosts, Set<String> allowedOrigins, Optional<String> authToken) {
        public Network {
            allowedHosts = Set.copyOf(allowedHosts);
            allowedOrigins = Set.copyOf(allowedOrigins);
            Objects.requireNonNull(authToken, "authToken");
        }

        @Override
        public String toString() {
            return "Network[host=" + host + ", port=" + port + ", token=" + (authToken.isPresent() ? "set" : "unset")
                    + "]";
        }
    }

    /** MCP-side file-ingress settings (reference §9.1, v0.5). */
    public record FileIngress(boolean enabled, Duration timeout, String sidecarUrl) {}

    /**
     * Agent delegation settings (reference §9.1, §9.3; v0.7.3 §4). {@code embedded} hosts the Agent service
     * inside {@code serve} (CONTRACT.md §3.3).
     */
    public record Agent(
            boolean bridgeEnabled,
            boolean embedded,
            Path bridgeSocket,
            Duration bridgeTimeout,
            Path lockDir,
            Optional<Path> stateDir,
            boolean fakeRuntimeEnabled,
            Duration taskTimeout,
            Duration interactionTimeout,
            int maxActiveTasks,
            Duration retention,
            List<String> enabledRuntimes) {
        public Agent {
            enabledRuntimes = List.copyOf(enabledRuntimes);
        }

        @Override
        public String toString() {
            return "Agent[bridgeEnabled=" + bridgeEnabled + ", embedded=" + embedded + "]";
        }
    }
}
