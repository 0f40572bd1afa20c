package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.serverfs.adapters.bridge.BridgeClient;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.adapters.sqlite.SqliteTaskStores;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.SubmitAgentTaskCommand;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.TaskId;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serverfs bridge} as a real process: each start-up refusal exits 2 with a one-line reason and creates
 * nothing; the runtime files get the modes of reference §1.2; SIGTERM during an active task stops accepting, closes
 * the socket, interrupts the task with {@code BRIDGE_SHUTDOWN}, releases the lease and exits 0.
 */
class BridgeCommandIT {
    private static final Duration WAIT = AgentProbe.WAIT;
    private static final int NOBODY = 65534;

    @TempDir
    Path dir;

    private Map<String, String> env() throws Exception {
        Path proj = Files.createDirectories(dir.resolve("proj"));
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        env.put("SERVERFS_AGENT_BRIDGE_SOCKET", dir.resolve("run/bridge.sock").toString());
        env.put("SERVERFS_AGENT_LOCK_DIR", dir.resolve("locks").toString());
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", dir.resolve("state").toString());
        env.put("WORKDIR_01_ALIAS", "proj");
        env.put("WORKDIR_01_PATH", proj.toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "fake");
        return env;
    }

    private String refusal(Map<String, String> env) throws Exception {
        ServeProcess bridge = BridgeProcess.startRefused(env);
        assertEquals(2, bridge.waitForExit(WAIT), bridge.stderr().toString());
        List<String> reasons = bridge.stderr().stream()
                .filter(l -> l.startsWith("ServerFS: configuration error: "))
                .toList();
        assertEquals(1, reasons.size(), bridge.stderr().toString());
        assertTrue(
                bridge.stderr().stream().anyMatch(l -> l.contains("\"event\":\"startup_failed\"")),
                bridge.stderr().toString());
        assertFalse(Files.exists(dir.resolve("state")), "no task store");
        assertFalse(Files.exists(dir.resolve("locks")), "no lock directory");
        return reasons.get(0);
    }

    @Test
    void a_bad_configuration_is_refused_with_exit_2_and_nothing_created() throws Exception {
        Map<String, String> env = env();
        env.put("SERVERFS_AGENT_PEER_UID", "alice");
        assertEquals(
                "ServerFS: configuration error: SERVERFS_AGENT_PEER_UID must be an integer from 0 to 2147483646",
                refusal(env));
        env.remove("SERVERFS_AGENT_PEER_UID");
        env.put("SERVERFS_AGENT_PEER_GID", "-1");
        assertTrue(refusal(env).contains("SERVERFS_AGENT_PEER_GID must be an integer"));
        env.remove("SERVERFS_AGENT_PEER_GID");
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "false");
        assertTrue(refusal(env).contains("SERVERFS_AGENT_BRIDGE_ENABLED is not true"));
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.remove("SERVERFS_AGENT_BRIDGE_STATE_DIR");
        assertEquals(
                "ServerFS: configuration error: serverfs bridge needs SERVERFS_AGENT_BRIDGE_STATE_DIR (where the task"
                        + " store lives)",
                refusal(env));
        assertFalse(Files.exists(dir.resolve("run")), "no socket directory");
    }

    @Test
    void an_unsafe_socket_directory_is_refused_with_exit_2_and_nothing_created() throws Exception {
        Path run = Files.createDirectory(dir.resolve("run"));
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertEquals(
                "ServerFS: configuration error: SOCKET_DIRECTORY_UNSAFE: the socket directory must be a directory owned"
                        + " by the Bridge user and writable by it only",
                refusal(env()));
        try (var entries = Files.list(run)) {
            assertEquals(0, entries.count(), "no socket");
        }
    }

    @Test
    void a_socket_in_use_is_refused_with_exit_2_and_the_first_bridge_keeps_serving() throws Exception {
        Map<String, String> env = env();
        try (ServeProcess _ = BridgeProcess.startReady(env)) {
            Map<String, String> second = new HashMap<>(env);
            Path other = dir.resolve("other");
            second.put("SERVERFS_AGENT_LOCK_DIR", other.resolve("locks").toString());
            second.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", other.resolve("state").toString());
            Files.createDirectories(other);
            ServeProcess refused = BridgeProcess.startRefused(second);
            assertEquals(2, refused.waitForExit(WAIT), refused.stderr().toString());
            assertTrue(
                    refused.stderr()
                            .contains(
                                    "ServerFS: configuration error: SOCKET_PATH_IN_USE: the Bridge socket path is in use"),
                    refused.stderr().toString());
            try (var entries = Files.list(other)) {
                assertEquals(0, entries.count(), "the refused Bridge touched no store and no lock directory");
            }
            assertFalse(client(env).listRuntimes().isEmpty(), "the first Bridge still answers");
        }
    }

    @Test
    void private_modes_without_a_peer_identity_and_group_modes_with_a_shared_group() throws Exception {
        Map<String, String> env = env();
        try (ServeProcess bridge = BridgeProcess.startReady(env)) {
            assertEquals("rwx------", mode(dir.resolve("run")));
            assertEquals("rw-------", mode(dir.resolve("run/bridge.sock")));
            assertEquals("rwx------", mode(dir.resolve("locks")));
            assertEquals("rw-------", mode(dir.resolve("locks/01.lock")));
            assertTrue(bridge.stderr().stream()
                    .anyMatch(
                            l -> l.contains("\"event\":\"bridge_listening\"") && l.contains("\"shared_group\":false")));
            assertTrue(bridge.stderr().stream().noneMatch(l -> l.contains(dir.toString())), "no host path logged");
            assertEquals(0, bridge.terminate(BridgeProcess.GRACE));
        }
        assertFalse(Files.exists(dir.resolve("run/bridge.sock"), LinkOption.NOFOLLOW_LINKS), "socket removed");
        deleteTree(dir.resolve("run"));
        deleteTree(dir.resolve("locks"));
        // The MCP side runs as another uid in the Bridge user's group 65534 (this test runs as root, which may
        // give files any group).
        env.put("SERVERFS_AGENT_PEER_UID", Integer.toString(NOBODY));
        env.put("SERVERFS_AGENT_PEER_GID", Integer.toString(NOBODY));
        try (ServeProcess bridge = BridgeProcess.startReady(env)) {
            assertEquals("rwxr-x---", mode(dir.resolve("run")));
            assertEquals("rw-rw----", mode(dir.resolve("run/bridge.sock")));
            assertEquals(NOBODY, gid(dir.resolve("run/bridge.sock")));
            assertEquals("rwxr-x---", mode(dir.resolve("locks")));
            assertEquals("rwxr-x---", mode(dir.resolve("locks/active")));
            assertEquals("rw-r-----", mode(dir.resolve("locks/16.lock")));
            assertEquals(NOBODY, gid(dir.resolve("locks/16.lock")));
            assertEquals(0, bridge.terminate(BridgeProcess.GRACE));
        }
    }

    @Test
    void every_bridge_log_line_is_json_with_each_key_once() throws Exception {
        Map<String, String> env = env();
        // Allowed: uid and gid 65534 only, so this test's own (root) connection is refused and logged.
        env.put("SERVERFS_AGENT_PEER_UID", Integer.toString(NOBODY));
        env.put("SERVERFS_AGENT_PEER_GID", Integer.toString(NOBODY));
        ObjectMapper strict = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        try (ServeProcess bridge = BridgeProcess.startReady(env)) {
            try (SocketChannel refused =
                    SocketChannel.open(UnixDomainSocketAddress.of(dir.resolve("run/bridge.sock")))) {
                refused.read(ByteBuffer.allocate(1024));
            }
            assertTrue(
                    bridge.awaitLine(l -> l.contains("\"event\":\"bridge_peer_refused\""), WAIT)
                            .isPresent(),
                    bridge.stderr().toString());
            assertEquals(0, bridge.terminate(BridgeProcess.GRACE));
            List<String> json =
                    bridge.stderr().stream().filter(l -> l.startsWith("{")).toList();
            assertTrue(json.size() >= 4, bridge.stderr().toString());
            for (String line : json) {
                // Issue 24 item 11: the Bridge's own events carried "event" twice (the message and a key/value).
                assertTrue(strict.readTree(line).has("event"), line);
            }
        }
    }

    @Test
    void sigterm_during_an_active_task_interrupts_it_releases_the_lease_and_exits_0() throws Exception {
        Map<String, String> env = env();
        FlockWriterLeases leases = new FlockWriterLeases(dir.resolve("locks"));
        TaskId id;
        try (ServeProcess bridge = BridgeProcess.startReady(env)) {
            BridgeClient client = client(env);
            id = client.submit(SubmitAgentTaskCommand.parse(
                            "fake",
                            "proj",
                            "wait:",
                            "",
                            "workspace-write",
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty()))
                    .handle()
                    .taskId();
            RecoveryGuard guard = AgentProbe.await(
                    "provider started",
                    () -> leases.readGuard(1).filter(g -> g.provider().isPresent()));
            assertEquals(id, guard.taskId());
            AgentProbe.await(
                    "running",
                    () -> client.get(id).status().wire().equals("running") ? Optional.of(true) : Optional.empty());

            assertEquals(
                    0, bridge.terminate(BridgeProcess.GRACE), bridge.stderr().toString());
            assertTrue(bridge.stderr().stream().anyMatch(l -> l.contains("\"event\":\"shutdown\"")));
        }
        assertFalse(Files.exists(dir.resolve("run/bridge.sock"), LinkOption.NOFOLLOW_LINKS), "socket removed");
        SqliteTaskStores.TaskSummary task =
                SqliteTaskStores.listReadOnly(dir.resolve("state"), true).get(0);
        assertEquals(id.value(), task.taskId());
        assertEquals("interrupted", task.status());
        assertEquals("BRIDGE_SHUTDOWN", task.errorCode().orElseThrow());
        try (var _ = leases.acquire(1)) {
            // the lease is free
        }
        assertTrue(leases.readGuard(1).isEmpty(), "the provider's stop was proven, so its guard is gone");
    }

    private BridgeClient client(Map<String, String> env) {
        return new BridgeClient(Path.of(env.get("SERVERFS_AGENT_BRIDGE_SOCKET")), Duration.ofSeconds(10));
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }

    private static int gid(Path p) throws Exception {
        return (int) Files.getAttribute(p, "unix:gid", LinkOption.NOFOLLOW_LINKS);
    }

    private static void deleteTree(Path root) throws Exception {
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
