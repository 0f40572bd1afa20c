package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.bootstrap.serve.MockMessagesApi.Reply;
import dev.serverfs.domain.task.RecoveryGuard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runtime {@code claude} end to end (issue 13): the real Claude Code CLI (the npm version {@link ClaudeCode} pins) run
 * by a real {@code serverfs serve} with the embedded Agent service, against {@link MockMessagesApi} on 127.0.0.1,
 * driven only through the published MCP tools. Every test has its own {@code HOME} (Claude's settings and sessions),
 * its own mock and its own {@code serve} ({@link ClaudeWorld}); after every test no {@code claude} process is left.
 */
class ClaudeServeIT {
    private static final Duration WAIT = AgentProbe.WAIT;
    /** v0.7.3 §6: a provider stop is bounded by 10 s; a little slack for a loaded 2-core machine. */
    private static final Duration STOP_BOUND = Duration.ofSeconds(15);

    private static Path bin;

    @TempDir
    Path dir;

    private ProviderWorld<MockMessagesApi> env;

    @BeforeAll
    static void install() throws Exception {
        bin = ClaudeCode.binary();
    }

    @AfterEach
    void no_claude_process_is_left() throws Exception {
        try {
            if (env != null) {
                env.close();
            }
        } finally {
            PinnedCli.assertNoneLeft(bin, STOP_BOUND);
        }
    }

    private ProviderWorld<MockMessagesApi> env(MockMessagesApi.Script script) throws Exception {
        return env(script, Map.of());
    }

    private ProviderWorld<MockMessagesApi> env(MockMessagesApi.Script script, Map<String, String> extra)
            throws Exception {
        env = ClaudeWorld.start(dir, bin, script, extra);
        return env;
    }

    /** A Bash tool call that creates {@code file} in the task's cwd, then a text that quotes the tool result. */
    private static MockMessagesApi.Script touch(String file) {
        return r -> r.toolResult("toolu_touch_1")
                .<Reply>map(result -> new Reply.Text("Tool result seen: " + result.path("content")))
                .orElseGet(() -> new Reply.ToolUse(
                        "toolu_touch_1",
                        "Bash",
                        MockMessagesApi.json(
                                "{\"command\":\"touch " + file + "\",\"description\":\"Create " + file + "\"}")));
    }

    // ------------------------------------------------------------------------------------------ tests

    @Test
    void a_plain_task_succeeds_with_the_mock_text_as_final_response() throws Exception {
        ProviderWorld<MockMessagesApi> e = env(r -> new Reply.Text("Hello from the mock Messages API"));
        JsonNode runtimes = e.mcp.call("list_agent_runtimes", Map.of()).ok().get("runtimes");
        JsonNode claude = runtimes.get(0);
        assertEquals("claude", claude.get("name").asText());
        assertTrue(claude.get("available").asBoolean(), runtimes.toString());
        assertEquals(
                PinnedCli.version("claude", "@anthropic-ai/claude-code"),
                claude.get("version").asText());
        assertFalse(claude.get("live_steer").asBoolean());
        assertEquals("session-resume", claude.get("in_flight_recovery").asText());

        String id = e.submit("Say hello");
        JsonNode task = e.awaitStatus(id, "succeeded");
        assertEquals(
                "Hello from the mock Messages API", task.get("final_response").asText());
        assertFalse(task.toString().contains("session_id"), "the native session id never leaves the Agent service");
        List<String> types = e.probe.eventTypes(id);
        assertTrue(
                types.containsAll(List.of("task.started", "turn.started", "agent.message", "task.completed")),
                types.toString());
        assertEquals("Say hello", e.mock.requests().getFirst().lastUserText(), "the prompt reached the model");
        e.probe.awaitNoGuard(1);
    }

    @Test
    void cancel_agent_task_on_a_slow_streaming_turn_cancels_at_once_and_the_child_is_gone_within_the_bound()
            throws Exception {
        ProviderWorld<MockMessagesApi> e = env(r -> new Reply.Stall("Thinking slowly..."));
        String id = e.submit("Think slowly");
        long pid = e.awaitProvider().provider().orElseThrow().pid();
        e.mock.awaitRequests(1, WAIT);
        assertTrue(PinnedCli.runsUnder(bin, pid), "the orphan check sees a running claude child");
        assertEquals(
                "AGENT_PROVIDER_ERROR",
                e.mcp.call("send_agent_message", Map.of("task_id", id, "message", "faster please"))
                        .code(),
                "live_steer is false for Claude");
        Instant cancelled = Instant.now();
        JsonNode out = e.mcp.call("cancel_agent_task", Map.of("task_id", id)).ok();
        assertEquals("cancelled", out.get("status").asText(), "terminal before the call returns (v0.7.3 §14.1)");
        Optional<ProcessHandle> child = ProcessHandle.of(pid);
        if (child.isPresent()) {
            child.get().onExit().get(STOP_BOUND.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        assertTrue(Duration.between(cancelled, Instant.now()).compareTo(STOP_BOUND) < 0);
        assertTrue(e.mock.awaitStallEnded(WAIT), "the model stream was closed");
        e.probe.awaitNoGuard(1);
        e.probe.awaitLeaseReleased(1);
        assertEquals("cancelled", e.probe.task(id).get("status").asText());
    }

    @Test
    void a_bash_approval_approved_once_runs_the_command_and_the_file_appears() throws Exception {
        ProviderWorld<MockMessagesApi> e = env(touch("approved.txt"));
        String id = e.submit("Create the file");
        JsonNode pending = e.awaitPending(id);
        JsonNode payload = pending.get("payload");
        assertEquals("approval", pending.get("kind").asText());
        assertEquals("command", payload.get("category").asText());
        assertEquals("touch approved.txt", payload.get("command_display").asText());
        assertTrue(
                payload.get("available_decisions").toString().contains("approve_session"),
                "the CLI suggested session-scoped permissions: " + payload);
        assertFalse(Files.exists(e.proj.resolve("approved.txt")), "nothing runs before the approval");
        respond(e, id, pending, "approve_once");
        JsonNode task = e.awaitStatus(id, "succeeded");
        assertTrue(Files.exists(e.proj.resolve("approved.txt")), "the approved command ran in the task's cwd");
        assertTrue(task.get("final_response").asText().startsWith("Tool result seen"), task.toString());
        assertTrue(e.probe.eventTypes(id).contains("command.started"));
        e.probe.awaitNoGuard(1);
    }

    @Test
    void a_denied_bash_approval_lets_the_turn_continue_with_the_denial() throws Exception {
        ProviderWorld<MockMessagesApi> e = env(touch("denied.txt"));
        String id = e.submit("Create the file");
        respond(e, id, e.awaitPending(id), "deny");
        JsonNode task = e.awaitStatus(id, "succeeded");
        assertFalse(Files.exists(e.proj.resolve("denied.txt")));
        JsonNode result =
                e.mock.requests().getLast().toolResult("toolu_touch_1").orElseThrow();
        assertTrue(result.path("is_error").asBoolean(), result.toString());
        assertTrue(result.toString().contains("Denied by the remote user"), result.toString());
        assertTrue(task.get("final_response").asText().contains("Denied by the remote user"));
    }

    @Test
    void cancel_task_on_a_bash_approval_cancels_at_once_and_the_child_is_gone_within_the_bound() throws Exception {
        ProviderWorld<MockMessagesApi> e = env(touch("cancelled.txt"));
        String id = e.submit("Create the file");
        long pid = e.awaitProvider().provider().orElseThrow().pid();
        respond(e, id, e.awaitPending(id), "cancel_task");
        assertEquals("cancelled", e.probe.task(id).get("status").asText(), "terminal when the response returns");
        Optional<ProcessHandle> child = ProcessHandle.of(pid);
        if (child.isPresent()) {
            child.get().onExit().get(STOP_BOUND.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        assertFalse(Files.exists(e.proj.resolve("cancelled.txt")));
        e.probe.awaitNoGuard(1);
    }

    @Test
    void a_model_api_500_fails_the_task_with_agent_provider_error_well_before_the_deadline() throws Exception {
        ProviderWorld<MockMessagesApi> e = env(r -> new Reply.Status(500));
        Instant submitted = Instant.now();
        String id = e.submit("Say hello");
        JsonNode task = e.awaitStatus(id, "failed");
        assertEquals("AGENT_PROVIDER_ERROR", task.get("error_code").asText());
        assertTrue(
                Duration.between(submitted, Instant.now()).compareTo(Duration.ofSeconds(45)) < 0,
                "bounded API retries, not the 2 h task deadline");
        assertTrue(
                e.mock.requests().size() <= 3,
                "at most 1 + 2 retries: " + e.mock.requests().size());
        e.probe.awaitNoGuard(1);
    }

    @Test
    void a_child_killed_mid_turn_fails_the_task_and_the_guard_clears_on_the_observed_exit() throws Exception {
        ProviderWorld<MockMessagesApi> e = env(r -> new Reply.Stall("Working..."));
        String id = e.submit("Work slowly");
        long pid = e.awaitProvider().provider().orElseThrow().pid();
        e.mock.awaitRequests(1, WAIT);
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        JsonNode task = e.awaitStatus(id, "failed");
        assertEquals("AGENT_PROVIDER_ERROR", task.get("error_code").asText());
        e.probe.awaitNoGuard(1);
        e.probe.awaitLeaseReleased(1);
    }

    @Test
    void an_unanswered_approval_times_out_and_the_child_is_stopped() throws Exception {
        ProviderWorld<MockMessagesApi> e =
                env(touch("late.txt"), Map.of("SERVERFS_AGENT_INTERACTION_TIMEOUT_SECONDS", "2"));
        String id = e.submit("Create the file");
        long pid = e.awaitProvider().provider().orElseThrow().pid();
        e.awaitPending(id);
        JsonNode task = e.awaitStatus(id, "interrupted");
        assertEquals("AGENT_INTERACTION_TIMED_OUT", task.get("error_code").asText());
        Optional<ProcessHandle> child = ProcessHandle.of(pid);
        if (child.isPresent()) {
            child.get().onExit().get(STOP_BOUND.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        assertFalse(Files.exists(e.proj.resolve("late.txt")));
        e.probe.awaitNoGuard(1);
    }

    @Test
    void continue_from_task_id_resumes_the_session_and_the_model_receives_the_earlier_history() throws Exception {
        ProviderWorld<MockMessagesApi> e =
                env(r -> new Reply.Text(r.lastUserText().contains("PELICAN") ? "Noted." : "It was the pelican."));
        String first = e.submit("Remember the word PELICAN");
        e.awaitStatus(first, "succeeded");
        e.probe.awaitLeaseReleased(1);
        Map<String, Object> next = AgentServeIT.submit("proj", "claude", "Which word did I ask you to remember?");
        next.put("continue_from_task_id", first);
        String second = AgentServeIT.created(e.mcp.call("submit_agent_task", next));
        JsonNode task = e.awaitStatus(second, "succeeded");
        assertEquals("It was the pelican.", task.get("final_response").asText());
        MockMessagesApi.Request last = e.mock.requests().getLast();
        assertTrue(last.text().contains("Remember the word PELICAN"), "the earlier prompt is in the history");
        assertTrue(last.text().contains("Noted."), "the earlier answer is in the history");
    }

    @Test
    void ask_user_question_becomes_a_question_and_the_answer_reaches_the_model() throws Exception {
        String ask = "{\"questions\":[{\"question\":\"Which color?\",\"header\":\"Color\",\"options\":["
                + "{\"label\":\"Red\",\"description\":\"warm\"},{\"label\":\"Blue\",\"description\":\"cold\"}],"
                + "\"multiSelect\":false}]}";
        ProviderWorld<MockMessagesApi> e = env(r -> r.toolResult("toolu_ask_1")
                .<Reply>map(result -> new Reply.Text("Answer seen: " + result.path("content")))
                .orElseGet(() -> new Reply.ToolUse("toolu_ask_1", "AskUserQuestion", MockMessagesApi.json(ask))));
        String id = e.submit("Ask me a question");
        JsonNode pending = e.awaitPending(id);
        assertEquals("question", pending.get("kind").asText());
        JsonNode question = pending.get("payload").get("questions").get(0);
        assertEquals("q1", question.get("question_id").asText());
        assertEquals("Which color?", question.get("prompt").asText());
        assertEquals("Blue", question.get("options").get(1).get("option_id").asText());
        e.mcp.call(
                        "answer_agent_question",
                        Map.of(
                                "task_id",
                                id,
                                "request_id",
                                pending.get("request_id").asText(),
                                "answers",
                                List.of(Map.of("question_id", "q1", "selected_option_ids", List.of("Blue")))))
                .ok();
        JsonNode task = e.awaitStatus(id, "succeeded");
        String toolResult = e.mock.requests()
                .getLast()
                .toolResult("toolu_ask_1")
                .orElseThrow()
                .toString();
        assertTrue(toolResult.contains("Which color?") && toolResult.contains("Blue"), toolResult);
        assertTrue(task.get("final_response").asText().contains("Blue"));
    }

    @Test
    void a_killed_serve_takes_its_confined_claude_with_it_and_the_restart_clears_the_guard() throws Exception {
        ProviderWorld<MockMessagesApi> e = env(r -> new Reply.Stall("Working..."));
        String id = e.submit("Work slowly");
        RecoveryGuard guard = e.awaitProvider();
        assertEquals(id, guard.taskId().value());
        e.mock.awaitRequests(1, WAIT);
        List<ProcessHandle> claude = ClaudeCode.running(bin);
        assertEquals(1, claude.size(), "one claude child runs");
        // a closed stdin does not stop a Claude turn: only the sandbox's --die-with-parent ends it (issue 24 item 9)
        e.serve.kill();
        claude.getFirst().onExit().get(STOP_BOUND.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        FlockWriterLeases leases = new FlockWriterLeases(e.locks);
        assertTrue(leases.readGuard(1).isPresent(), "nobody cleared the guard of the killed serve");
        e.startServe();
        assertTrue(
                e.mcp.call("create_text_file", Map.of("workdir", "proj", "path", "n.txt", "content", "x"))
                                .error()
                        == null,
                "the recorded provider is gone: the restart clears the guard");
        assertTrue(leases.readGuard(1).isEmpty());
    }

    private static void respond(ProviderWorld<MockMessagesApi> e, String id, JsonNode pending, String decision)
            throws Exception {
        e.mcp.call(
                        "respond_agent_approval",
                        Map.of(
                                "task_id",
                                id,
                                "request_id",
                                pending.get("request_id").asText(),
                                "decision",
                                decision))
                .ok();
    }
}
