package dev.serverfs.bootstrap.serve;

import static dev.serverfs.bootstrap.serve.AgentServeIT.created;
import static dev.serverfs.bootstrap.serve.AgentServeIT.submit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.bootstrap.serve.McpTestClient.ToolCall;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The v0.7.3 §14 cancellation defects and Phase A item 6, proven through the published MCP surface: a real {@code
 * serverfs serve} with the embedded Agent service, real SQLite, real flock leases and guard files, and fake provider
 * children whose stop the tests control with the fake runtime's modifiers ({@code hold:}, {@code unstoppable:},
 * {@code stall-cancel:}, {@code result-on-cancel:}). Every provider a test saw is killed after it by the pid and
 * start time its guard recorded. Waits are bounded polls; the one long wait is the fixed 10 s provider-cancel bound.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentCancellationIT {
    private static final Duration WAIT = AgentProbe.WAIT;
    /** v0.7.3 §6.2/§14.3: provider cancellation is internally bounded to 10 s. */
    private static final Duration PROVIDER_CANCEL_BOUND = Duration.ofSeconds(10);

    private Path lockDir;
    private FlockWriterLeases leases;
    private ServeProcess serve;
    private McpTestClient mcp;
    private AgentProbe probe;
    private final List<ProviderProcess> providers = new ArrayList<>();
    private final List<String> started = new ArrayList<>();

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        lockDir = dir.resolve("locks");
        leases = new FlockWriterLeases(lockDir);
        Files.createDirectories(dir.resolve("proj"));
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_EMBEDDED", "true");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", dir.resolve("state").toString());
        env.put("SERVERFS_AGENT_LOCK_DIR", lockDir.toString());
        env.put("SERVERFS_AGENT_INTERACTION_TIMEOUT_SECONDS", "2");
        env.put("WORKDIR_01_ALIAS", "proj");
        env.put("WORKDIR_01_PATH", dir.resolve("proj").toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "fake");
        serve = ServeProcess.start(env);
        mcp = new McpTestClient(serve.awaitUrl(WAIT));
        probe = new AgentProbe(mcp, lockDir);
    }

    @AfterEach
    void stop_what_the_test_started() throws Exception {
        for (ProviderProcess p : providers) {
            kill(p);
        }
        providers.clear();
        for (String id : started) {
            mcp.call("cancel_agent_task", Map.of("task_id", id));
        }
        started.clear();
        probe.awaitLeaseReleased(1);
    }

    @AfterAll
    void stop() throws Exception {
        if (serve != null) {
            serve.close();
        }
    }

    // --------------------------------------------------------------------------------------------- §14.1

    @Test
    void cancel_is_terminal_at_once_while_a_held_provider_cleanup_keeps_the_workdir_busy_until_it_is_released()
            throws Exception {
        String id = submitted("hold:wait:");
        ProviderProcess provider = awaitProvider(id);
        probe.awaitTask(id, t -> status(t).equals("running"));

        assertEquals(
                "cancelled",
                status(mcp.call("cancel_agent_task", Map.of("task_id", id)).ok()));
        assertEquals("cancelled", status(probe.task(id)), "the public read agrees with the cancel RPC at once");
        assertEquals(
                "WORKDIR_BUSY",
                create("held.txt").code(),
                "the writer lease is not released early merely because the task record is terminal");
        assertTrue(leases.readGuard(1).isPresent());
        assertEquals(ProviderState.ACTIVE, leases.providerState(provider), "the provider's cleanup is held");

        kill(provider);
        probe.awaitLeaseReleased(1);
        assertTrue(leases.readGuard(1).isEmpty(), "the observed exit is proof: guard gone, no submit needed");
        assertNull(create("held.txt").error(), "the mutation goes through");
        assertEquals("cancelled", status(probe.task(id)));
        assertTrue(probe.eventTypes(id).contains("task.cancelled"));
    }

    // --------------------------------------------------------------------------------------------- §14.2

    @Test
    void a_normal_result_after_cancel_keeps_the_task_cancelled_and_still_clears_the_guard_without_a_submit()
            throws Exception {
        String id = submitted("result-on-cancel:wait:");
        awaitProvider(id);
        probe.awaitTask(id, t -> status(t).equals("running"));

        assertEquals(
                "cancelled",
                status(mcp.call("cancel_agent_task", Map.of("task_id", id)).ok()));
        probe.awaitLeaseReleased(1);
        assertTrue(leases.readGuard(1).isEmpty(), "the provider's stop was recorded");
        JsonNode task = probe.task(id);
        assertEquals("cancelled", status(task), "a late normal result does not make it succeeded");
        assertTrue(task.get("final_response").isNull(), task.toString());
        List<String> events = probe.eventTypes(id);
        assertTrue(events.contains("task.cancelled"), events.toString());
        assertFalse(events.contains("task.completed"), events.toString());
        assertNull(create("after-result.txt").error());
    }

    // --------------------------------------------------------------------------------------------- §14.3

    @Test
    void a_runtime_cancel_that_never_returns_still_answers_cancelled_within_the_bound_and_cleanup_completes()
            throws Exception {
        String id = submitted("stall-cancel:wait:");
        ProviderProcess provider = awaitProvider(id);
        probe.awaitTask(id, t -> status(t).equals("running"));

        McpTestClient other = new McpTestClient(serve.awaitUrl(WAIT));
        try (ExecutorService caller = Executors.newSingleThreadExecutor()) {
            long begin = System.nanoTime();
            Future<ToolCall> cancel = caller.submit(() -> other.call("cancel_agent_task", Map.of("task_id", id)));
            probe.awaitTask(id, t -> status(t).equals("cancelled"));
            assertFalse(cancel.isDone(), "the runtime's cancel is still stalled");
            assertEquals("WORKDIR_BUSY", create("stalled.txt").code(), "no lease release while it stalls");

            ToolCall answer = cancel.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            Duration took = Duration.ofNanos(System.nanoTime() - begin);
            assertEquals("cancelled", status(answer.ok()));
            assertTrue(took.compareTo(PROVIDER_CANCEL_BOUND.minusSeconds(1)) >= 0, "the stall was real: " + took);
            assertTrue(took.compareTo(PROVIDER_CANCEL_BOUND.plusSeconds(8)) < 0, "bounded: " + took);
        }
        probe.awaitLeaseReleased(1);
        assertTrue(leases.readGuard(1).isEmpty(), "after the bound the interrupt stopped the provider: proof");
        assertEquals(ProviderState.STOPPED, leases.providerState(provider));
        assertNull(create("stalled.txt").error());
    }

    // --------------------------------------------------------------------------------------------- §14.4

    @Test
    void approval_cancel_task_is_cancelled_when_the_rpc_returns_with_the_cancel_events_and_cleanup_rules()
            throws Exception {
        String id = submitted("approval:make test");
        awaitProvider(id);
        String request = probe.awaitTask(id, t -> status(t).equals("waiting_for_approval"))
                .get("pending_request")
                .get("request_id")
                .asText();

        assertTrue(mcp.call(
                        "respond_agent_approval",
                        Map.of("task_id", id, "request_id", request, "decision", "cancel_task"))
                .ok()
                .get("resolved")
                .asBoolean());
        assertEquals("cancelled", status(probe.task(id)), "observably cancelled when the approval RPC returns");

        probe.awaitLeaseReleased(1);
        assertTrue(leases.readGuard(1).isEmpty(), "same guard rule as cancel_agent_task: cleared on proven stop");
        List<String> events = probe.eventTypes(id);
        assertTrue(events.containsAll(List.of("approval.resolved", "task.cancelled")), events.toString());
        assertFalse(events.contains("task.completed"), events.toString());
        assertEquals(
                "cancelled",
                status(mcp.call("cancel_agent_task", Map.of("task_id", id)).ok()),
                "repeat-safe");
        assertNull(create("approval.txt").error());
    }

    // ---------------------------------------------------------------------------------- Phase A item 6

    @Test
    void an_interaction_timeout_with_an_unproven_stop_frees_the_lease_keeps_the_guard_and_a_mutation_reconciles_later()
            throws Exception {
        String id = submitted("unstoppable:question:which?");
        ProviderProcess provider = awaitProvider(id);
        String request = probe.awaitTask(id, t -> status(t).equals("waiting_for_question"))
                .get("pending_request")
                .get("request_id")
                .asText();

        JsonNode ended = probe.awaitTask(id, t -> status(t).equals("interrupted"));
        assertEquals("AGENT_INTERACTION_TIMED_OUT", ended.get("error_code").asText());
        List<Map<String, Object>> answers = List.of(Map.of("question_id", "q1", "selected_option_ids", List.of("a")));
        assertEquals(
                "REQUEST_STALE",
                mcp.call("answer_agent_question", Map.of("task_id", id, "request_id", request, "answers", answers))
                        .code());

        probe.awaitLeaseReleased(1);
        assertEquals(ProviderState.ACTIVE, leases.providerState(provider), "the runtime could not stop it");
        assertTrue(leases.readGuard(1).isPresent(), "no proof of stop: the guard stays");
        assertEquals(
                "WORKDIR_RECOVERY_REQUIRED",
                create("late.txt").code(),
                "not busy any more, but fail-closed while the provider may still write");
        assertTrue(leases.readGuard(1).isPresent(), "lazy reconciliation found no proof");

        kill(provider);
        assertNull(create("late.txt").error(), "the next mutation reconciles lazily and succeeds");
        assertTrue(leases.readGuard(1).isEmpty());
        JsonNode after = probe.task(id);
        assertEquals("interrupted", status(after));
        assertEquals("AGENT_INTERACTION_TIMED_OUT", after.get("error_code").asText());
    }

    // ------------------------------------------------------------------------------------------ helpers

    private String submitted(String prompt) throws Exception {
        String id = created(mcp.call("submit_agent_task", submit("proj", "fake", prompt)));
        started.add(id);
        return id;
    }

    private ToolCall create(String path) throws Exception {
        return mcp.call("create_text_file", Map.of("workdir", "proj", "path", path, "content", "x\n"));
    }

    /** Waits until the task's guard records its provider child, which the clean-up will kill if still running. */
    private ProviderProcess awaitProvider(String id) throws Exception {
        ProviderProcess provider = probe.awaitGuard(
                        1, g -> g.taskId().value().equals(id) && g.provider().isPresent())
                .provider()
                .orElseThrow();
        providers.add(provider);
        return provider;
    }

    /** SIGKILL, only if the pid still belongs to the recorded process (same start time), and waits for its exit. */
    private void kill(ProviderProcess provider) throws Exception {
        if (leases.providerState(provider) != ProviderState.ACTIVE) {
            return;
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(provider.pid());
        if (handle.isPresent()) {
            handle.get().destroyForcibly();
            handle.get().onExit().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private static String status(JsonNode task) {
        return task.get("status").asText();
    }
}
