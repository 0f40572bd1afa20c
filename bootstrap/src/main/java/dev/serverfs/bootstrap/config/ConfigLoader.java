package dev.serverfs.bootstrap.config;

import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Builds the one immutable {@link ServerFsConfig} from the process environment and an optional {@code .env} file
 * (contract reference §1.5, §9; CONTRACT.md §4; v0.7.3 §4; v0.5 §11). The process environment wins over the
 * file. Every value is read through the settings catalogue ({@link Catalogue}: name, parse style, default); what is
 * here are the rules between settings. Every rule is checked at start-up; nothing guesses, so a typo is an error
 * rather than access.
 */
public final class ConfigLoader {

    /** The file a disabled-slot placeholder directory contains (reference §1.1, §9.2). */
    public static final String DISABLED_SENTINEL = ".serverfs-disabled";

    private final Variables vars;

    private ConfigLoader(Variables vars) {
        this.vars = vars;
    }

    /**
     * Loads and validates the configuration.
     *
     * @param env the process environment (tests pass their own map)
     * @param envFile an optional {@code .env} file; its values apply only where {@code env} has no such name, and a
     *     relative {@code WORKDIR_NN_PATH} written in it resolves against the file's directory
     * @throws ConfigurationException with an agent-safe reason when any rule is violated
     */
    public static ServerFsConfig load(Map<String, String> env, Optional<Path> envFile) throws ConfigurationException {
        ServerFsConfig config = new ConfigLoader(Variables.load(env, envFile)).build();
        ServerFsConfig.Agent agent = config.agent();
        if (agent.bridgeEnabled() && !agent.embedded() && config.workdirs().anyAgentEnabled()) {
            // serve beside a Bridge: the lock directory is the Bridge's, and serve only takes leases in it
            AgentRules.verifyPeerLockDirectory(agent.lockDir());
        }
        return config;
    }

    /** {@link #load} with this process's environment. */
    public static ServerFsConfig loadFromProcess(Optional<Path> envFile) throws ConfigurationException {
        return load(System.getenv(), envFile);
    }

    /**
     * The configuration of {@code serverfs bridge} (CONTRACT.md §3.4, reference §9.3): the same variables as {@link
     * #load}, and the Bridge's own rules: the Agent enabled and not embedded, a workdir with an agent mode, a state
     * directory; the socket is {@code SERVERFS_AGENT_BRIDGE_HOST_SOCKET_DIR/bridge.sock} and the lock directory
     * {@code SERVERFS_AGENT_LOCK_HOST_DIR} when set (the host side of compose.agent.yml's binds), else {@code
     * SERVERFS_AGENT_BRIDGE_SOCKET} and {@code SERVERFS_AGENT_LOCK_DIR}.
     */
    public static ServerFsConfig loadBridge(Map<String, String> env, Optional<Path> envFile)
            throws ConfigurationException {
        ConfigLoader loader = new ConfigLoader(Variables.load(env, envFile));
        return loader.bridge(loader.build());
    }

    private ServerFsConfig bridge(ServerFsConfig config) throws ConfigurationException {
        ServerFsConfig.Agent agent = config.agent();
        if (!agent.bridgeEnabled()) {
            throw new ConfigurationException("serverfs bridge needs SERVERFS_AGENT_BRIDGE_ENABLED=true");
        }
        if (agent.embedded()) {
            throw new ConfigurationException(
                    "serverfs bridge cannot run with SERVERFS_AGENT_EMBEDDED=true (serve hosts the Agent service then)");
        }
        if (!config.workdirs().anyAgentEnabled()) {
            throw new ConfigurationException(
                    "serverfs bridge needs a workdir whose agent mode is review or workspace-write");
        }
        Path stateDir = agent.stateDir()
                .orElseThrow(() -> new ConfigurationException(
                        "serverfs bridge needs SERVERFS_AGENT_BRIDGE_STATE_DIR (where the task store lives)"));
        Path socket = AgentSettings.BRIDGE_HOST_SOCKET_DIR
                .find(vars)
                .map(dir -> dir.resolve("bridge.sock"))
                .orElse(agent.bridgeSocket());
        Path lockDir = AgentSettings.LOCK_HOST_DIR.find(vars).orElse(agent.lockDir());
        AgentRules.verifyAgentDirectories(lockDir, stateDir);
        return new ServerFsConfig(
                config.logLevel(),
                config.network(),
                config.limits(),
                config.workdirs(),
                config.fileIngress(),
                agent.onHost(socket, lockDir),
                config.policySummary());
    }

    private ServerFsConfig build() throws ConfigurationException {
        KnownVariables.rejectTypos(vars);
        String logLevel = ServerSettings.LOG_LEVEL.get(vars);
        ServerFsConfig.Network network = network();
        ServerLimits limits = limits();
        boolean fakeRuntimeEnabled = AgentSettings.ENABLE_FAKE_RUNTIME.get(vars);
        WorkdirPolicy global = globalPolicy();
        boolean bridgeEnabled = AgentSettings.BRIDGE_ENABLED.get(vars);

        WorkdirSlots slots = new WorkdirSlots(vars);
        List<Workdir> workdirs = new ArrayList<>();
        Map<String, Integer> slotByAlias = new HashMap<>();
        int withOverrides = 0;
        for (int slot = 1; slot <= Workdir.MAX_SLOTS; slot++) {
            Optional<Workdir> workdir = slots.slot(slot, global, slotByAlias);
            if (workdir.isPresent()) {
                workdirs.add(workdir.get());
                if (slots.hasPolicyOverride(slot)) {
                    withOverrides++;
                }
            }
        }
        for (Workdir w : workdirs) {
            if (w.policy().agentMode() != AgentMode.DISABLED && !bridgeEnabled) {
                throw new ConfigurationException(prefix(w.slot()) + "AGENT_MODE is "
                        + w.policy().agentMode().wire() + " for workdir '" + w.alias()
                        + "' but SERVERFS_AGENT_BRIDGE_ENABLED is not true");
            }
        }
        ServerFsConfig.Agent agent = new AgentRules(vars).agent(bridgeEnabled, fakeRuntimeEnabled, workdirs);
        ServerFsConfig.PolicySummary summary = new ServerFsConfig.PolicySummary(
                global.allowHidden(),
                !global.disableDefaultDeny(),
                global.extraDenyGlobs().size(),
                withOverrides);
        return new ServerFsConfig(logLevel, network, limits, new Workdirs(workdirs), fileIngress(), agent, summary);
    }

    private ServerFsConfig.Network network() throws ConfigurationException {
        String host = ServerSettings.HOST.get(vars);
        if (host.chars().anyMatch(c -> Character.isWhitespace(c) || c == '/' || c == '*')) {
            throw new ConfigurationException("SERVERFS_HOST must be an IP address or host name");
        }
        Optional<String> token = ServerSettings.AUTH_TOKEN.find(vars);
        String metricsHost = metricsHost(ServerSettings.METRICS_HOST, ServerSettings.METRICS_PORT, token);
        String bridgeMetricsHost =
                metricsHost(ServerSettings.BRIDGE_METRICS_HOST, ServerSettings.BRIDGE_METRICS_PORT, token);
        int port = ServerSettings.PORT.get(vars);
        Optional<Integer> metricsPort = ServerSettings.METRICS_PORT.find(vars);
        if (metricsPort.equals(Optional.of(port))
                && (metricsHost.equals(host) || isWildcard(metricsHost) || isWildcard(host))) {
            // serve would collide with itself at start ("address already in use") after check-config said OK
            throw new ConfigurationException(
                    "SERVERFS_METRICS_PORT is SERVERFS_PORT on the same address; the metrics need a port of their own");
        }
        return new ServerFsConfig.Network(
                host,
                port,
                ServerSettings.ALLOWED_HOSTS.get(vars),
                ServerSettings.ALLOWED_ORIGINS.get(vars),
                token,
                ServerSettings.MAX_CONNECTIONS.find(vars),
                ServerSettings.REQUEST_BODY_TIMEOUT_SECONDS.get(vars),
                ServerSettings.REQUEST_BODY_MIN_BYTES_PER_SECOND.get(vars),
                metricsPort,
                metricsHost,
                ServerSettings.BRIDGE_METRICS_PORT.find(vars),
                bridgeMetricsHost);
    }

    private static boolean isWildcard(String host) {
        return host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]");
    }

    /**
     * A metrics listener's bind address: an address or host name, and — when its port turns the listener on — a
     * loopback one unless the bearer token is set (a scrape from elsewhere must then carry it).
     */
    private String metricsHost(Setting<String> hostSetting, Setting<Integer> portSetting, Optional<String> token)
            throws ConfigurationException {
        String host = hostSetting.get(vars);
        if (host.isEmpty() || host.chars().anyMatch(c -> Character.isWhitespace(c) || c == '/' || c == '*')) {
            throw new ConfigurationException(hostSetting.name() + " must be an IP address or host name");
        }
        if (portSetting.find(vars).isPresent() && token.isEmpty() && !ServerFsConfig.Network.isLoopback(host)) {
            throw new ConfigurationException(
                    hostSetting.name() + " is not a loopback address, so SERVERFS_AUTH_TOKEN must be set");
        }
        return host;
    }

    private ServerLimits limits() throws ConfigurationException {
        return new ServerLimits(
                ServerSettings.DEFAULT_LIST_LIMIT.get(vars),
                ServerSettings.MAX_LIST_ENTRIES.get(vars),
                ServerSettings.DEFAULT_SEARCH_RESULTS.get(vars),
                ServerSettings.MAX_SEARCH_RESULTS.get(vars),
                ServerSettings.MAX_WALK_ENTRIES.get(vars),
                ServerSettings.SEARCH_TIMEOUT_SECONDS.get(vars),
                ServerSettings.SEARCH_MAX_FILE_BYTES.get(vars),
                ServerSettings.MAX_EDITS_PER_CALL.get(vars));
    }

    /** The global defaults of every workdir policy (reference §9.1), validated on their own first. */
    private WorkdirPolicy globalPolicy() throws ConfigurationException {
        boolean allowHidden = ServerSettings.ALLOW_HIDDEN.get(vars);
        boolean disableDefaultDeny = ServerSettings.DISABLE_DEFAULT_DENY.get(vars);
        List<String> extraDenyGlobs = WorkdirSlots.distinct(ServerSettings.EXTRA_DENY_GLOBS.get(vars), List.of());
        int maxReadBytes = ServerSettings.MAX_READ_BYTES.get(vars);
        int maxReadLines = ServerSettings.MAX_READ_LINES.get(vars);
        int maxWriteBytes = ServerSettings.MAX_WRITE_BYTES.get(vars);
        boolean binary = ServerSettings.BINARY_TRANSFER_ENABLED.get(vars);
        long maxBinary = ServerSettings.MAX_BINARY_TRANSFER_BYTES.get(vars);
        AgentMode mode = AgentSettings.AGENT_MODE.get(vars);
        List<String> runtimes = AgentSettings.AGENT_RUNTIMES.get(vars);
        if (mode == AgentMode.DISABLED && !runtimes.isEmpty()) {
            throw new ConfigurationException(
                    "SERVERFS_AGENT_RUNTIMES is set but SERVERFS_AGENT_MODE is disabled (set both or neither)");
        }
        if (mode != AgentMode.DISABLED && runtimes.isEmpty()) {
            throw new ConfigurationException("SERVERFS_AGENT_MODE is " + mode.wire()
                    + " but SERVERFS_AGENT_RUNTIMES is empty (set both or neither)");
        }
        return new WorkdirPolicy(
                allowHidden,
                disableDefaultDeny,
                extraDenyGlobs,
                maxReadBytes,
                maxReadLines,
                maxWriteBytes,
                binary,
                maxBinary,
                mode,
                new TreeSet<>(runtimes));
    }

    private ServerFsConfig.FileIngress fileIngress() throws ConfigurationException {
        return new ServerFsConfig.FileIngress(
                ServerSettings.FILE_INGRESS_ENABLED.get(vars),
                ServerSettings.FILE_INGRESS_TIMEOUT_SECONDS.get(vars),
                ServerSettings.FILE_INGRESS_URL.get(vars));
    }

    private static String prefix(int slot) {
        return Setting.slotPrefix(slot);
    }
}
