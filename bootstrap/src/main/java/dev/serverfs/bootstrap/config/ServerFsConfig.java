package dev.serverfs.bootstrap.config;

import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdirs;
import dev.serverfs.provider.AgentRuntimeDescriptor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

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
        Agent agent,
        PolicySummary policySummary) {

    public ServerFsConfig {
        Objects.requireNonNull(logLevel, "logLevel");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(workdirs, "workdirs");
        Objects.requireNonNull(fileIngress, "fileIngress");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(policySummary, "policySummary");
    }

    /** For tests and wiring that build a configuration by hand: the policy summary is the built-in default. */
    public ServerFsConfig(
            String logLevel,
            Network network,
            ServerLimits limits,
            Workdirs workdirs,
            FileIngress fileIngress,
            Agent agent) {
        this(logLevel, network, limits, workdirs, fileIngress, agent, PolicySummary.DEFAULTS);
    }

    /**
     * The global policy facts the {@code startup} event reports (reference §1.5): counts and flags only, never the
     * globs themselves.
     */
    public record PolicySummary(
            boolean globalAllowHidden,
            boolean globalDefaultDenyEnabled,
            int globalExtraDenyRuleCount,
            int workdirsWithPolicyOverrides) {

        public static final PolicySummary DEFAULTS = new PolicySummary(false, true, 0, 0);
    }

    /**
     * {@code SERVERFS_HOST}, {@code SERVERFS_PORT}, allow-lists and the optional bearer token (CONTRACT.md §4), and
     * the transport bounds: {@code SERVERFS_MAX_CONNECTIONS} (empty: derived from the descriptor limit) and the
     * request-body deadlines; {@code metricsPort} ({@code SERVERFS_METRICS_PORT}, empty: no metrics listener) and
     * {@code metricsHost} where that listener binds; {@code bridgeMetricsPort} and {@code bridgeMetricsHost} the same
     * for {@code serverfs bridge}'s own listener ({@code SERVERFS_AGENT_BRIDGE_METRICS_*}).
     */
    public record Network(
            String host,
            int port,
            Set<String> allowedHosts,
            Set<String> allowedOrigins,
            Optional<String> authToken,
            Optional<Integer> maxConnections,
            Duration bodyTimeout,
            int bodyMinBytesPerSecond,
            Optional<Integer> metricsPort,
            String metricsHost,
            Optional<Integer> bridgeMetricsPort,
            String bridgeMetricsHost) {

        /** Default transport bounds. */
        public Network(
                String host,
                int port,
                Set<String> allowedHosts,
                Set<String> allowedOrigins,
                Optional<String> authToken) {
            this(
                    host,
                    port,
                    allowedHosts,
                    allowedOrigins,
                    authToken,
                    Optional.empty(),
                    Duration.ofSeconds(60),
                    1024,
                    Optional.empty(),
                    "127.0.0.1",
                    Optional.empty(),
                    "127.0.0.1");
        }

        public Network {
            allowedHosts = Set.copyOf(allowedHosts);
            allowedOrigins = Set.copyOf(allowedOrigins);
            Objects.requireNonNull(authToken, "authToken");
            Objects.requireNonNull(maxConnections, "maxConnections");
            Objects.requireNonNull(bodyTimeout, "bodyTimeout");
            Objects.requireNonNull(metricsPort, "metricsPort");
            Objects.requireNonNull(metricsHost, "metricsHost");
            Objects.requireNonNull(bridgeMetricsPort, "bridgeMetricsPort");
            Objects.requireNonNull(bridgeMetricsHost, "bridgeMetricsHost");
        }

        /** The token a scrape of {@code /metrics} must carry: the auth token unless the listener is loopback. */
        public Optional<String> metricsToken() {
            return isLoopback(metricsHost) ? Optional.empty() : authToken;
        }

        /** {@code serve}'s metrics listener, present when {@code SERVERFS_METRICS_PORT} is set. */
        public Optional<MetricsEndpoint> metrics() {
            return metricsPort.map(p -> new MetricsEndpoint(metricsHost, p, metricsToken()));
        }

        /** {@code serverfs bridge}'s metrics listener, present when {@code SERVERFS_AGENT_BRIDGE_METRICS_PORT} is set. */
        public Optional<MetricsEndpoint> bridgeMetrics() {
            return bridgeMetricsPort.map(p -> new MetricsEndpoint(
                    bridgeMetricsHost, p, isLoopback(bridgeMetricsHost) ? Optional.empty() : authToken));
        }

        private static final Pattern LOOPBACK_V4 = Pattern.compile("127(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}");

        /**
         * Whether a bind address is a loopback one, by its text alone (no name resolution): {@code localhost},
         * {@code ::1} or an IPv4 literal in 127.0.0.0/8 — a host name such as {@code 127.example.com} is not.
         */
        public static boolean isLoopback(String host) {
            String h = host.toLowerCase(Locale.ROOT);
            return h.equals("localhost")
                    || h.equals("::1")
                    || h.equals("[::1]")
                    || LOOPBACK_V4.matcher(h).matches();
        }

        @Override
        public String toString() {
            return "Network[host=" + host + ", port=" + port + ", token=" + (authToken.isPresent() ? "set" : "unset")
                    + "]";
        }
    }

    /**
     * Where one process's {@code GET /metrics} listener binds, and the bearer token a scrape must carry (the auth
     * token when {@code host} is not loopback, else none).
     */
    public record MetricsEndpoint(String host, int port, Optional<String> token) {

        public MetricsEndpoint {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(token, "token");
        }

        @Override
        public String toString() {
            return "MetricsEndpoint[host=" + host + ", port=" + port + ", token="
                    + (token.isPresent() ? "set" : "unset") + "]";
        }
    }

    /** MCP-side file-ingress settings (reference §9.1, v0.5). */
    public record FileIngress(boolean enabled, Duration timeout, String sidecarUrl) {

        /** The Compose service the MCP side posts to unless {@code SERVERFS_FILE_INGRESS_URL} overrides it. */
        public static final String DEFAULT_SIDECAR_URL = "http://serverfs-file-ingress:8081/fetch";

        public FileIngress {
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(sidecarUrl, "sidecarUrl");
        }

        @Override
        public String toString() {
            return "FileIngress[enabled=" + enabled + ", timeout=" + timeout + "]";
        }
    }

    /**
     * Agent delegation settings (reference §9.1, §9.3; v0.7.3 §4). {@code embedded} hosts the Agent service
     * inside {@code serve} (CONTRACT.md §3.3). {@code enabledRuntimes} is the sorted union of the runtimes allowed
     * on any workdir; {@code retention} is {@code SERVERFS_AGENT_TASK_RETENTION_HOURS} as a duration. {@code peerUid}
     * and {@code peerGid} ({@code SERVERFS_AGENT_PEER_UID}/{@code _GID}) are the identity {@code serverfs bridge}
     * accepts on its socket; empty means the Bridge's own (reference §4.1). {@code runtimeSettings} holds every
     * runtime's own settings, resolved ({@link AgentRuntimeCatalogue}).
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
            List<String> enabledRuntimes,
            Map<RuntimeName, AgentRuntimeDescriptor.Values> runtimeSettings,
            Optional<Integer> peerUid,
            Optional<Integer> peerGid,
            Sandbox sandbox) {
        /** Every runtime with its default settings ({@code claude} and {@code codex} on {@code PATH}, their bounds). */
        public Agent(
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
            this(
                    bridgeEnabled,
                    embedded,
                    bridgeSocket,
                    bridgeTimeout,
                    lockDir,
                    stateDir,
                    fakeRuntimeEnabled,
                    taskTimeout,
                    interactionTimeout,
                    maxActiveTasks,
                    retention,
                    enabledRuntimes,
                    AgentRuntimeCatalogue.defaults(),
                    Optional.empty(),
                    Optional.empty(),
                    Sandbox.DEFAULTS);
        }

        public Agent {
            Objects.requireNonNull(bridgeSocket, "bridgeSocket");
            Objects.requireNonNull(bridgeTimeout, "bridgeTimeout");
            Objects.requireNonNull(lockDir, "lockDir");
            Objects.requireNonNull(stateDir, "stateDir");
            Objects.requireNonNull(taskTimeout, "taskTimeout");
            Objects.requireNonNull(interactionTimeout, "interactionTimeout");
            Objects.requireNonNull(retention, "retention");
            enabledRuntimes = List.copyOf(enabledRuntimes);
            runtimeSettings = Map.copyOf(runtimeSettings);
            Objects.requireNonNull(peerUid, "peerUid");
            Objects.requireNonNull(peerGid, "peerGid");
            Objects.requireNonNull(sandbox, "sandbox");
        }

        /**
         * The Bridge's view of the same settings ({@code serverfs bridge}, CONTRACT.md §3.4): the host-side socket
         * path and lock directory in place of the paths {@code serve} uses (inside a container they differ).
         */
        public Agent onHost(Path hostSocket, Path hostLockDir) {
            return new Agent(
                    bridgeEnabled,
                    embedded,
                    hostSocket,
                    bridgeTimeout,
                    hostLockDir,
                    stateDir,
                    fakeRuntimeEnabled,
                    taskTimeout,
                    interactionTimeout,
                    maxActiveTasks,
                    retention,
                    enabledRuntimes,
                    runtimeSettings,
                    peerUid,
                    peerGid,
                    sandbox);
        }

        @Override
        public String toString() {
            return "Agent[bridgeEnabled=" + bridgeEnabled + ", embedded=" + embedded + "]";
        }
    }

    /**
     * How provider children are confined (issue 25): {@code SERVERFS_AGENT_ALLOW_UNCONFINED} (the operator's opt-out
     * where the view cannot be built), {@code SERVERFS_AGENT_BWRAP_BIN} and {@code
     * SERVERFS_AGENT_SANDBOX_READ_ONLY_PATHS}, the {@code --env-file} the configuration came from (it holds {@code
     * SERVERFS_AUTH_TOKEN}), which every child's view conceals, and {@code SERVERFS_AGENT_EGRESS_ALLOW}, the operator's
     * extra {@code host:port} entries of the egress relay. {@link #toString} shows no path.
     */
    public record Sandbox(
            boolean allowUnconfined,
            String bwrapBin,
            List<Path> readOnlyPaths,
            Optional<Path> envFile,
            List<String> egressAllow) {
        public static final Sandbox DEFAULTS = new Sandbox(false, "bwrap", List.of(), Optional.empty(), List.of());

        public Sandbox {
            Objects.requireNonNull(bwrapBin, "bwrapBin");
            readOnlyPaths = List.copyOf(readOnlyPaths);
            Objects.requireNonNull(envFile, "envFile");
            egressAllow = List.copyOf(egressAllow);
        }

        @Override
        public String toString() {
            return "Sandbox[allowUnconfined=" + allowUnconfined + "]";
        }
    }
}
