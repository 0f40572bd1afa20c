package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 item 3 as it was reproduced: while a workspace-write task runs in {@code serve} (embedded Agent), another
 * local user (uid 65534; this test runs as root and plays it with chown) replaces {@code 01.lock} and {@code active/}
 * with its own. Neither an MCP edit nor a second workspace-write task may be admitted beside the running writer.
 */
class LockDirectoryTakeoverIT {
    private static final int NOBODY = 65534;

    @TempDir
    Path dir;

    @Test
    void swapped_lock_file_and_active_directory_admit_no_second_writer() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "playing another user needs root");
        Path proj = Files.createDirectories(dir.resolve("proj"));
        Path locks = dir.resolve("locks");
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_EMBEDDED", "true");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", dir.resolve("state").toString());
        env.put("SERVERFS_AGENT_LOCK_DIR", locks.toString());
        env.put("WORKDIR_01_ALIAS", "proj");
        env.put("WORKDIR_01_PATH", proj.toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "fake");
        try (ServeProcess serve = ServeProcess.start(env)) {
            McpTestClient mcp = new McpTestClient(serve.awaitUrl(AgentProbe.WAIT));
            AgentProbe probe = new AgentProbe(mcp, locks);
            String running = AgentScenarios.created(
                    mcp.call("submit_agent_task", AgentScenarios.submit("proj", "fake", "wait:")));
            probe.awaitStatus(running, "running");

            // The other user's files take the names of the running writer's lease and guard.
            Path lock = locks.resolve("01.lock");
            Path active = locks.resolve("active");
            Files.move(lock, dir.resolve("01.lock.held"));
            Files.move(active, dir.resolve("active.held"));
            Files.createFile(lock);
            Files.setAttribute(lock, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);
            Files.createDirectory(
                    active, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.setAttribute(active, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);

            assertEquals(
                    "AGENT_LOCK_UNAVAILABLE",
                    mcp.call("create_text_file", Map.of("workdir", "proj", "path", "second.txt", "content", "x"))
                            .code(),
                    "an MCP edit beside the running writer");
            assertFalse(Files.exists(proj.resolve("second.txt")), "nothing written");
            assertEquals(
                    "LOCK_PATH_UNSAFE",
                    mcp.call("submit_agent_task", AgentScenarios.submit("proj", "fake", "complete:second"))
                            .code(),
                    "a second workspace-write task beside the running one");

            // Undo the swap so the running task stops cleanly.
            Files.delete(lock);
            Files.move(dir.resolve("01.lock.held"), lock);
            Files.delete(active);
            Files.move(dir.resolve("active.held"), active);
            mcp.call("cancel_agent_task", Map.of("task_id", running)).ok();
            probe.awaitLeaseReleased(1);
        }
    }
}
