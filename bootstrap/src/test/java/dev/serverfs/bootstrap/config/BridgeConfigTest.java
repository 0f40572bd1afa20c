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

    @Test
    void the_bridges_metrics_listener_is_off_by_default_and_has_its_own_port_and_host() throws Exception {
        ServerFsConfig.Network off =
                ConfigLoader.loadBridge(env, Optional.empty()).network();
        assertEquals(Optional.empty(), off.bridgeMetrics());
        env.put("SERVERFS_METRICS_PORT", "9464");
        env.put("SERVERFS_METRICS_HOST", "0.0.0.0");
        env.put("SERVERFS_AUTH_TOKEN", "s3cret-token");
        env.put("SERVERFS_AGENT_BRIDGE_METRICS_PORT", "9465");
        ServerFsConfig.Network both =
                ConfigLoader.loadBridge(env, Optional.empty()).network();
        assertEquals(
                Optional.of(new ServerFsConfig.MetricsEndpoint("127.0.0.1", 9465, Optional.empty())),
                both.bridgeMetrics(),
                "loopback by default, whatever serve's host: no token asked");
        assertEquals(
                Optional.of(new ServerFsConfig.MetricsEndpoint("0.0.0.0", 9464, Optional.of("s3cret-token"))),
                both.metrics(),
                "serve's listener unchanged");
        env.put("SERVERFS_AGENT_BRIDGE_METRICS_HOST", "0.0.0.0");
        assertEquals(
                Optional.of("s3cret-token"),
                ConfigLoader.loadBridge(env, Optional.empty())
                        .network()
                        .bridgeMetrics()
                        .orElseThrow()
                        .token(),
                "a non-loopback Bridge listener takes the bearer token");
        assertFalse(both.bridgeMetrics().orElseThrow().toString().contains("s3cret"));
    }

    @Test
    void a_bad_bridge_metrics_setting_is_a_configuration_error() {
        for (String bad : new String[] {"0", "65536", "metrics", "9465.5"}) {
            env.put("SERVERFS_AGENT_BRIDGE_METRICS_PORT", bad);
            assertRefused("SERVERFS_AGENT_BRIDGE_METRICS_PORT must be an integer from 1 to 65535");
        }
        env.put("SERVERFS_AGENT_BRIDGE_METRICS_PORT", "9465");
        for (String notLoopback : new String[] {"0.0.0.0", "10.0.0.1", "127.example.com"}) {
            env.put("SERVERFS_AGENT_BRIDGE_METRICS_HOST", notLoopback);
            assertRefused("SERVERFS_AGENT_BRIDGE_METRICS_HOST is not a loopback address, so SERVERFS_AUTH_TOKEN must be"
                    + " set");
        }
        env.put("SERVERFS_AGENT_BRIDGE_METRICS_HOST", "a b");
        assertRefused("SERVERFS_AGENT_BRIDGE_METRICS_HOST must be an IP address or host name");
        env.put("SERVERFS_AGENT_BRIDGE_METRICS_HOST", "127.0.0.1");
        env.put("SERVERFS_AGENT_BRIDGE_METRICS_PROT", "9465");
        assertRefused("unknown variable SERVERFS_AGENT_BRIDGE_METRICS_PROT (did you mean"
                + " SERVERFS_AGENT_BRIDGE_METRICS_PORT?)");
    }
}
