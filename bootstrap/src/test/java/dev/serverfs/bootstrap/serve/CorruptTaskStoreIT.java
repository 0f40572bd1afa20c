package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 item 7: a task store of garbage bytes stops {@code serve} (hosting the Agent) and {@code bridge} at
 * start-up with exit 2, one {@code ServerFS: ...} line naming no path, a {@code startup_failed} event and no stack
 * trace, and leaves the file byte for byte as it was.
 */
class CorruptTaskStoreIT {
    private static final String REASON = "ServerFS: configuration error: AGENT_RESULT_STORAGE_ERROR: the task store is"
            + " not a valid SQLite database (corrupt or another file); it was left untouched: move it aside or"
            + " restore it from a backup";

    @TempDir
    Path dir;

    private Map<String, String> env(String name) throws Exception {
        Path proj = Files.createDirectories(dir.resolve("proj"));
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        env.put(
                "SERVERFS_AGENT_BRIDGE_SOCKET",
                dir.resolve(name + "-run/bridge.sock").toString());
        env.put("SERVERFS_AGENT_LOCK_DIR", dir.resolve(name + "-locks").toString());
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", dir.resolve("state").toString());
        env.put("WORKDIR_01_ALIAS", "proj");
        env.put("WORKDIR_01_PATH", proj.toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "fake");
        return env;
    }

    @Test
    void serve_and_bridge_refuse_a_garbage_store_with_exit_2_one_line_and_startup_failed_leaving_it_untouched()
            throws Exception {
        Path state = Files.createDirectory(
                dir.resolve("state"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path database = state.resolve("state.sqlite3");
        byte[] garbage = new byte[256 * 1024];
        new Random(24).nextBytes(garbage);
        Files.write(database, garbage);
        Files.setPosixFilePermissions(database, PosixFilePermissions.fromString("rw-------"));

        Map<String, String> embedded = env("serve");
        embedded.put("SERVERFS_AGENT_EMBEDDED", "true");
        embedded.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        Map<String, ServeProcess> roles = new LinkedHashMap<>();
        try {
            roles.put("serve", ServeProcess.start(embedded));
            roles.put("bridge", ServeProcess.startCommand("bridge", env("bridge")));
            for (Map.Entry<String, ServeProcess> role : roles.entrySet()) {
                ServeProcess p = role.getValue();
                assertEquals(2, p.waitForExit(AgentProbe.WAIT), role.getKey() + ": " + p.stderr());
                List<String> lines =
                        p.stderr().stream().filter(l -> !l.startsWith("{")).toList();
                assertEquals(List.of(REASON), lines, role.getKey() + ": only the reason, no stack trace");
                assertTrue(
                        p.stderr().stream()
                                .anyMatch(l -> l.contains("\"event\":\"startup_failed\"")
                                        && l.contains("not a valid SQLite database")),
                        role.getKey() + ": " + p.stderr());
                assertTrue(
                        p.stderr().stream().noneMatch(l -> l.contains(dir.toString())),
                        role.getKey() + " names no host path: " + p.stderr());
            }
        } finally {
            for (ServeProcess p : roles.values()) {
                p.close();
            }
        }
        assertArrayEquals(garbage, Files.readAllBytes(database), "the store is byte-for-byte untouched");
    }
}
