package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.adapters.sqlite.SqliteTaskStores;
import dev.serverfs.domain.task.RecoveryGuard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of {@code serverfs serve} during a workspace-write task (v0.7.3 §10 Phase A): after a restart the
 * slot stays fail-closed ({@code WORKDIR_RECOVERY_REQUIRED}) while the orphaned provider lives; once it is killed
 * by the pid recorded in the guard, its death is proven and the next mutation (or submit) reconciles the guard
 * lazily and the slot is usable again. No task row is lost.
 */
class AgentCrashIT {
    private static final Duration WAIT = AgentProbe.WAIT;

    @Test
    void
            a_killed_serve_leaves_the_slot_fail_closed_until_the_orphaned_provider_is_proven_dead_then_a_mutation_clears_it(
                    @TempDir Path dir) throws Exception {
        Path proj = Files.createDirectories(dir.resolve("proj"));
        Path state = dir.resolve("state");
        Path locks = dir.resolve("locks");
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_EMBEDDED", "true");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", state.toString());
        env.put("SERVERFS_AGENT_LOCK_DIR", locks.toString());
        env.put("WORKDIR_01_ALIAS", "proj");
        env.put("WORKDIR_01_PATH", proj.toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "fake");
        FlockWriterLeases leases = new FlockWriterLeases(locks);

        Optional<ProcessHandle> orphan = Optional.empty();
        try {
            String taskId;
            env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
            try (ServeProcess first = ServeProcess.start(env)) {
                McpTestClient mcp = new McpTestClient(first.awaitUrl(WAIT));
                AgentProbe probe = new AgentProbe(mcp, locks);
                taskId = AgentServeIT.created(
                        mcp.call("submit_agent_task", AgentServeIT.submit("proj", "fake", "linger:")));
                RecoveryGuard guard = probe.awaitGuard(1, g -> g.provider().isPresent());
                assertEquals(taskId, guard.taskId().value());
                orphan = ProcessHandle.of(guard.provider().get().pid());
                assertTrue(orphan.isPresent() && orphan.get().isAlive(), "the provider child runs");
                // The child has read its prompt once it reported turn.started; killed earlier it would see its
                // stdin end instead of a prompt and exit, which is a proven stop, not the orphan this test needs.
                AgentProbe.await(
                        "turn.started",
                        () -> probe.eventTypes(taskId).contains("turn.started") ? Optional.of(true) : Optional.empty());
                first.kill();
            }
            assertTrue(orphan.get().isAlive(), "the provider outlives the killed serve");
            assertTrue(leases.readGuard(1).isPresent(), "the guard stays on disk");

            env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
            try (ServeProcess second = ServeProcess.start(env)) {
                McpTestClient mcp = new McpTestClient(second.awaitUrl(WAIT));
                JsonNode task =
                        mcp.call("get_agent_task", Map.of("task_id", taskId)).ok();
                assertEquals("interrupted", task.get("status").asText(), "no task row lost; reconciled at start-up");
                assertEquals("BRIDGE_RESTARTED", task.get("error_code").asText());
                assertEquals(
                        "WORKDIR_RECOVERY_REQUIRED",
                        mcp.call("submit_agent_task", AgentServeIT.submit("proj", "fake", "complete:x"))
                                .code(),
                        "the slot stays fail-closed while the provider may still write");
                assertEquals(
                        "WORKDIR_RECOVERY_REQUIRED",
                        mcp.call("create_text_file", Map.of("workdir", "proj", "path", "new.txt", "content", "x"))
                                .code(),
                        "MCP mutations are fail-closed too");
                assertTrue(leases.readGuard(1).isPresent());

                orphan.get().destroyForcibly();
                orphan.get().onExit().get();
                // v0.7.2 lazy reconciliation from the mutation path: the proven death clears the guard, no submit.
                assertTrue(
                        mcp.call("create_text_file", Map.of("workdir", "proj", "path", "new.txt", "content", "x"))
                                        .error()
                                == null,
                        "the mutation reconciles the guard and succeeds");
                assertTrue(leases.readGuard(1).isEmpty(), "the guard is gone");
                String next = AgentServeIT.created(
                        mcp.call("submit_agent_task", AgentServeIT.submit("proj", "fake", "complete:after")));
                AgentProbe probe = new AgentProbe(mcp, locks);
                probe.awaitTask(next, t -> t.get("status").asText().equals("succeeded"));
                probe.awaitNoGuard(1);
                assertEquals(2, SqliteTaskStores.listReadOnly(state, true).size());
            }
        } finally {
            orphan.ifPresent(ProcessHandle::destroyForcibly);
        }
    }
}
