package dev.serverfs.bootstrap.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serverfs bridge}'s reading of the shared variables (CONTRACT.md §3.4, reference §9.3): the peer identity,
 * the Bridge's own start-up rules and its host-side socket and lock directory; each refusal with its exact reason.
 */
class BridgeConfigTest {
    @TempDir
    Path tmp;

    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void agentWorkdir() throws Exception {
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", tmp.resolve("state").toString());
        env.put("SERVERFS_AGENT_LOCK_DIR", tmp.resolve("locks").toString());
        env.put("WORKDIR_01_ALIAS", "proj");
        env.put("WORKDIR_01_PATH", Files.createDirectory(tmp.resolve("proj")).toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "codex");
    }

    private ServerFsConfig.Agent bridge() throws ConfigurationException {
        return ConfigLoader.loadBridge(env, Optional.empty()).agent();
    }

    private void assertRefused(String reason) {
        ConfigurationException e = assertThrows(ConfigurationException.class, this::bridge);
        assertEquals(reason, e.reason());
        assertFalse(e.reason().contains(tmp.toString()), e.reason());
    }

    @Test
    void the_peer_identity_defaults_to_the_bridges_own_and_takes_numeric_ids() throws Exception {
        assertEquals(Optional.empty(), bridge().peerUid());
        assertEquals(Optional.empty(), bridge().peerGid());
        env.put("SERVERFS_AGENT_PEER_UID", "1000");
        env.put("SERVERFS_AGENT_PEER_GID", "0");
        assertEquals(Optional.of(1000), bridge().peerUid());
        assertEquals(Optional.of(0), bridge().peerGid());
        assertEquals(
                Optional.of(1000),
                ConfigLoader.load(env, Optional.empty()).agent().peerUid(),
                "serve too");
    }

    @Test
    void a_peer_id_that_is_not_a_uid_is_a_configuration_error() {
        for (String bad : new String[] {"alice", "-1", "1.5", "4294967295", "0x10"}) {
            env.put("SERVERFS_AGENT_PEER_GID", bad);
            assertRefused("SERVERFS_AGENT_PEER_GID must be an integer from 0 to 2147483646");
        }
    }

    @Test
    void the_host_side_directories_win_over_the_container_paths() throws Exception {
        assertEquals(tmp.resolve("locks"), bridge().lockDir());
        env.put("SERVERFS_AGENT_BRIDGE_SOCKET", "/run/serverfs-agent-bridge/bridge.sock");
        assertEquals(Path.of("/run/serverfs-agent-bridge/bridge.sock"), bridge().bridgeSocket());
        env.put("SERVERFS_AGENT_BRIDGE_HOST_SOCKET_DIR", tmp.resolve("run").toString());
        env.put("SERVERFS_AGENT_LOCK_HOST_DIR", tmp.resolve("host-locks").toString());
        assertEquals(tmp.resolve("run").resolve("bridge.sock"), bridge().bridgeSocket());
        assertEquals(tmp.resolve("host-locks"), bridge().lockDir());
        ServerFsConfig.Agent serve = ConfigLoader.load(env, Optional.empty()).agent();
        assertEquals(Path.of("/run/serverfs-agent-bridge/bridge.sock"), serve.bridgeSocket(), "serve keeps its own");
        assertEquals(tmp.resolve("locks"), serve.lockDir());
    }

    @Test
    void the_bridges_own_rules_refuse_with_their_reason() throws Exception {
        env.remove("SERVERFS_AGENT_BRIDGE_STATE_DIR");
        assertRefused("serverfs bridge needs SERVERFS_AGENT_BRIDGE_STATE_DIR (where the task store lives)");
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", tmp.resolve("state").toString());
        env.put("SERVERFS_AGENT_EMBEDDED", "true");
        assertRefused(
                "serverfs bridge cannot run with SERVERFS_AGENT_EMBEDDED=true (serve hosts the Agent service then)");
        env.remove("SERVERFS_AGENT_EMBEDDED");
        env.put("WORKDIR_01_AGENT_MODE", "disabled");
        env.remove("WORKDIR_01_AGENT_RUNTIMES");
        assertRefused("serverfs bridge needs a workdir whose agent mode is review or workspace-write");
        env.remove("WORKDIR_01_AGENT_MODE");
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "false");
        assertRefused("serverfs bridge needs SERVERFS_AGENT_BRIDGE_ENABLED=true");
        Files.writeString(tmp.resolve("file"), "x");
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "codex");
        env.put("SERVERFS_AGENT_LOCK_HOST_DIR", tmp.resolve("file").toString());
        assertEquals(
                "SERVERFS_AGENT_LOCK_DIR: the lock directory must be a real directory, not a symlink or file",
                assertThrows(ConfigurationException.class, this::bridge).reason());
    }
}
