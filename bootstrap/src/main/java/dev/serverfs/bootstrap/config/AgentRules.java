package dev.serverfs.bootstrap.config;

import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.adapters.sqlite.SqliteTaskStores;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Workdir;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rules of the Agent settings (contract reference §1.5, §9.1, §9.3; CONTRACT.md §3.3): the master switch, the
 * embedded mode, the Bridge's paths and bounds, the runtimes' own settings. Values come from the catalogue's {@link
 * AgentSettings} and {@link AgentRuntimeCatalogue}.
 */
final class AgentRules {

    private final Variables vars;

    AgentRules(Variables vars) {
        this.vars = vars;
    }

    ServerFsConfig.Agent agent(boolean bridgeEnabled, boolean fakeRuntimeEnabled, List<Workdir> workdirs)
            throws ConfigurationException {
        boolean embedded = AgentSettings.EMBEDDED.get(vars);
        if (embedded && !bridgeEnabled) {
            throw new ConfigurationException(
                    "SERVERFS_AGENT_EMBEDDED=true needs SERVERFS_AGENT_BRIDGE_ENABLED=true (the Agent master switch)");
        }
        Path socket = agentPath(AgentSettings.BRIDGE_SOCKET, bridgeEnabled);
        Path lockDir = agentPath(AgentSettings.LOCK_DIR, bridgeEnabled);
        Optional<Path> stateDir = AgentSettings.BRIDGE_STATE_DIR.find(vars);
        if (embedded && stateDir.isEmpty()) {
            throw new ConfigurationException(
                    "SERVERFS_AGENT_EMBEDDED=true needs SERVERFS_AGENT_BRIDGE_STATE_DIR (where the task store lives)");
        }
        if (embedded && workdirs.stream().anyMatch(w -> w.policy().agentMode() != AgentMode.DISABLED)) {
            verifyAgentDirectories(lockDir, stateDir.orElseThrow());
        }
        Duration bridgeTimeout = AgentSettings.BRIDGE_TIMEOUT_SECONDS.get(vars);
        int taskTimeout = AgentSettings.TASK_TIMEOUT_SECONDS.get(vars);
        int interactionTimeout = AgentSettings.INTERACTION_TIMEOUT_SECONDS.get(vars);
        int maxActiveTasks = AgentSettings.MAX_ACTIVE_TASKS.get(vars);
        int retentionHours = AgentSettings.TASK_RETENTION_HOURS.get(vars);
        Set<String> runtimes = new TreeSet<>();
        for (Workdir w : workdirs) {
            runtimes.addAll(w.policy().agentRuntimes());
        }
        return new ServerFsConfig.Agent(
                bridgeEnabled,
                embedded,
                socket,
                bridgeTimeout,
                lockDir,
                stateDir,
                fakeRuntimeEnabled,
                Duration.ofSeconds(taskTimeout),
                Duration.ofSeconds(interactionTimeout),
                maxActiveTasks,
                Duration.ofHours(retentionHours),
                List.copyOf(runtimes),
                AgentRuntimeCatalogue.resolve(vars),
                AgentSettings.PEER_UID.find(vars),
                AgentSettings.PEER_GID.find(vars),
                new ServerFsConfig.Sandbox(
                        AgentSettings.ALLOW_UNCONFINED.get(vars),
                        AgentSettings.BWRAP_BIN.get(vars),
                        AgentSettings.SANDBOX_READ_ONLY_PATHS.get(vars),
                        vars.file(),
                        AgentSettings.EGRESS_ALLOW.get(vars)));
    }

    /**
     * The directories the embedded Agent service prepares at start-up, checked here so that a refusal is a
     * configuration error like any other, before anything is created (issue 10 §10): the lock directory as {@code
     * FlockWriterLeases.prepare} needs it, the state directory as reference §5 requires it.
     */
    static void verifyAgentDirectories(Path lockDir, Path stateDir) throws ConfigurationException {
        try {
            FlockWriterLeases.verifyPreparable(lockDir);
        } catch (ServerFsException e) {
            throw new ConfigurationException("SERVERFS_AGENT_LOCK_DIR: " + e.getMessage());
        }
        try {
            SqliteTaskStores.verifyStateDirectory(stateDir);
        } catch (ServerFsException e) {
            throw new ConfigurationException("SERVERFS_AGENT_BRIDGE_STATE_DIR: " + e.getMessage());
        }
    }

    /**
     * The lock directory of {@code serve} beside a Bridge, checked at start-up as the Bridge checks its own: where it
     * exists it must be usable by an MCP peer ({@code FlockWriterLeases.verifyPeerUsable}); missing is fine (the
     * Bridge creates it).
     */
    static void verifyPeerLockDirectory(Path lockDir) throws ConfigurationException {
        try {
            FlockWriterLeases.verifyPeerUsable(lockDir);
        } catch (ServerFsException e) {
            throw new ConfigurationException("SERVERFS_AGENT_LOCK_DIR: " + e.getMessage());
        }
    }

    /** Absolute when the Agent is enabled (reference §1.5); otherwise unused, so only kept when parseable. */
    private Path agentPath(Setting<Path> setting, boolean required) throws ConfigurationException {
        if (required) {
            return setting.get(vars);
        }
        try {
            return vars.get(setting.name()).map(Path::of).orElse(setting.defaultValue());
        } catch (InvalidPathException e) {
            return setting.defaultValue();
        }
    }
}
