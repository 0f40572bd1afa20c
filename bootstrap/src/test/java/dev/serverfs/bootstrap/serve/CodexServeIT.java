package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.bootstrap.serve.MockResponsesApi.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runtime {@code codex} end to end (issue 12): the real Codex CLI ({@code codex app-server}, the npm version {@link
 * CodexCli} pins) run by a real {@code serverfs serve} with the embedded Agent service, against {@link
 * MockResponsesApi} on 127.0.0.1, driven only through the published MCP tools. Every test has its own {@code HOME},
 * {@code CODEX_HOME}, mock and {@code serve} ({@link CodexWorld}); after every test no {@code codex} process is left.
 */
class CodexServeIT {
    private static final Duration WAIT = AgentProbe.WAIT;
    /** v0.7.3 §6: a provider stop is bounded by 10 s; a little slack for a loaded 2-core machine. */
    private static final Duration STOP_BOUND = Duration.ofSeconds(15);

    private static Path bin;

    @TempDir
    Path dir;

    private ProviderWorld<MockResponsesApi> world;

    @BeforeAll
    static void install() throws Exception {
        bin = CodexCli.binary();
    }

    @AfterEach
    void no_codex_process_is_left() throws Exception {
        try {
            if (world != null) {
                world.close();
            }
        } finally {
            PinnedCli.assertNoneLeft(bin, STOP_BOUND);
        }
    }

    private ProviderWorld<MockResponsesApi> world(MockResponsesApi.Script script) throws Exception {
        return world(script, Map.of());
    }

    private ProviderWorld<MockResponsesApi> world(MockResponsesApi.Script script, Map<String, String> extra)
            throws Exception {
        world = CodexWorld.start(dir, bin, script, extra);
        return world;
    }

    /** An {@code exec_command} call running {@code command}, then a text quoting what Codex sent back for it. */
    static MockResponsesApi.Script command(String command, boolean escalate) {
        String args = escalate
                ? "{\"cmd\":\"" + command
                        + "\",\"sandbox_permissions\":\"require_escalated\",\"justification\":\"May I run it?\"}"
                : "{\"cmd\":\"" + command + "\"}";
        return r -> r.callOutput("call_cmd_1")
                .<Reply>map(out -> new Reply.Text("Tool finished: " + out.path("output")))
                .orElseGet(() -> new Reply.Call("call_cmd_1", "exec_command", MockResponsesApi.json(args)));
    }

    private static void awaitGone(long pid) throws Exception {
        Optional<ProcessHandle> child = ProcessHandle.of(pid);
        if (child.isPresent()) {
            child.get().onExit().get(STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static void respond(ProviderWorld<MockResponsesApi> w, String id, JsonNode pending, String decision)
            throws Exception {
        w.mcp.call(
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

    // ------------------------------------------------------------------------------------------ tests

    @Test
    void a_plain_task_succeeds_with_the_mock_text_as_final_response_and_events_in_order() throws Exception {
        ProviderWorld<MockResponsesApi> w = world(r -> new Reply.Text("Hello from the mock Responses API"));
        JsonNode codex =
                w.mcp.call("list_agent_runtimes", Map.of()).ok().get("runtimes").get(0);
        assertEquals("codex", codex.get("name").asText());
        assertTrue(codex.get("available").asBoolean(), codex.toString());
        assertEquals(
                PinnedCli.version("codex", "@openai/codex"),
                codex.get("version").asText());
        assertTrue(codex.get("live_steer").asBoolean());
        assertEquals("session-resume", codex.get("in_flight_recovery").asText());

        String id = w.submit("Say hello");
        JsonNode task = w.awaitStatus(id, "succeeded");
        assertEquals(
                "Hello from the mock Responses API", task.get("final_response").asText());
        List<String> types = w.probe.eventTypes(id);
        List<String> expected = List.of("task.started", "turn.started", "agent.message", "task.completed");
        assertEquals(
                expected, types.stream().filter(expected::contains).distinct().toList(), "in order: " + types);
        assertEquals("Say hello", w.mock.requests().getFirst().lastUserText(), "the prompt reached the model");
        String events = w.mcp.call("read_agent_task_events", Map.of("task_id", id, "limit", 500))
                .ok()
                .toString();
        String threadKey =
                w.mock.requests().getFirst().body().path("prompt_cache_key").asText("no-key");
        assertFalse(task.toString().contains(threadKey), "the native thread id never leaves the Agent service");
        assertFalse(events.contains(threadKey), "no event carries the native thread id");
        assertFalse(events.contains(w.proj.toString()), "no event carries the host path");
        w.probe.awaitNoGuard(1);
        w.probe.awaitLeaseReleased(1);
    }

    @Test
    void a_missing_codex_binary_is_unavailable_and_submit_answers_agent_runtime_unavailable() throws Exception {
        ProviderWorld<MockResponsesApi> w = world(
                r -> new Reply.Text("never"),
                Map.of("SERVERFS_AGENT_CODEX_BIN", dir.resolve("no-such-codex").toString()));
        JsonNode codex =
                w.mcp.call("list_agent_runtimes", Map.of()).ok().get("runtimes").get(0);
        assertEquals("codex", codex.get("name").asText());
        assertFalse(codex.get("available").asBoolean(), codex.toString());
        assertEquals(
                "AGENT_RUNTIME_UNAVAILABLE",
                w.mcp.call("submit_agent_task", AgentServeIT.submit("proj", "codex", "Say hello"))
                        .code());
        assertEquals(List.of(), w.mock.requests(), "nothing reached the model");
    }

    @Test
    void a_command_approval_approved_once_runs_the_command_and_the_file_appears() throws Exception {
        ProviderWorld<MockResponsesApi> w = world(command("touch approved.txt", true));
        String id = w.submit("Create the file");
        JsonNode pending = w.awaitPending(id);
        JsonNode payload = pending.get("payload");
        assertEquals("approval", pending.get("kind").asText());
        assertEquals("command", payload.get("category").asText());
        assertTrue(payload.get("command_display").asText().contains("touch approved.txt"), payload.toString());
        assertEquals(".", payload.get("relative_cwd").asText(), "the host cwd became workdir-relative");
        assertTrue(payload.get("available_decisions").toString().contains("deny"), payload.toString());
        assertFalse(payload.toString().contains(w.proj.toString()), "no host path in the payload");
        assertFalse(Files.exists(w.proj.resolve("approved.txt")), "nothing runs before the approval");
        respond(w, id, pending, "approve_once");
        JsonNode task = w.awaitStatus(id, "succeeded");
        assertTrue(Files.exists(w.proj.resolve("approved.txt")), "the approved command ran in the task's cwd");
        assertTrue(task.get("final_response").asText().startsWith("Tool finished"), task.toString());
        List<String> types = w.probe.eventTypes(id);
        assertTrue(
                types.containsAll(List.of("approval.requested", "approval.resolved", "item.completed")),
                types.toString());
        w.probe.awaitNoGuard(1);
    }

    @Test
    void a_command_approval_round_trips_as_an_mcp_task_for_a_stateless_client_that_declares_the_extension()
            throws Exception {
        ProviderWorld<MockResponsesApi> w = world(command("touch task.txt", true));
        McpTestClient tasks = McpTestClient.statelessWithTasks(w.mcp.url());
        String id = AgentScenarios.handle(tasks.callResult(
                "submit_agent_task", AgentServeIT.submit("proj", "codex", "Create the file", "workspace-write")));
        assertTrue(id.startsWith("agt_"), "the MCP task is the Agent task: " + id);

        JsonNode waiting = AgentScenarios.awaitMcpTask(tasks, id, "input_required");
        String request =
                w.probe.task(id).get("pending_request").get("request_id").asText();
        JsonNode form = waiting.get("inputRequests").get(request);
        assertEquals(1, waiting.get("inputRequests").size(), waiting.toString());
        assertEquals("elicitation/create", form.get("method").asText());
        assertTrue(
                form.at("/params/requestedSchema/properties/decision/oneOf")
                        .toString()
                        .contains("\"const\":\"approve_once\""),
                form.toString());
        assertTrue(form.at("/params/message").asText().contains("touch task.txt"), form.toString());
        assertFalse(waiting.toString().contains(w.proj.toString()), "no host path in the task view");
        assertFalse(Files.exists(w.proj.resolve("task.txt")), "nothing runs before the approval");

        AgentScenarios.ack(tasks.answer(
                "tasks/update",
                Map.of(
                        "taskId",
                        id,
                        "inputResponses",
                        Map.of(request, Map.of("action", "accept", "content", Map.of("decision", "approve_once"))))));
        JsonNode done = AgentScenarios.awaitMcpTask(tasks, id, "completed");
        assertTrue(Files.exists(w.proj.resolve("task.txt")), "the approved command ran");
        assertTrue(done.at("/result/content/0/text").asText().startsWith("Tool finished"), done.toString());
        assertEquals("succeeded", done.at("/result/structuredContent/status").asText());
        assertEquals("succeeded", w.probe.task(id).get("status").asText(), "one task, two views");
        w.probe.awaitNoGuard(1);
        w.probe.awaitLeaseReleased(1);
    }

    @Test
    void a_denied_command_is_declined_and_the_task_still_completes() throws Exception {
        ProviderWorld<MockResponsesApi> w = world(command("touch denied.txt", true));
        String id = w.submit("Create the file");
        respond(w, id, w.awaitPending(id), "deny");
        JsonNode task = w.awaitStatus(id, "succeeded");
        assertFalse(Files.exists(w.proj.resolve("denied.txt")));
        assertTrue(w.mock.requests().getLast().callOutput("call_cmd_1").isPresent(), "the model heard the denial");
        assertTrue(task.get("final_response").asText().startsWith("Tool finished"), task.toString());
        w.probe.awaitNoGuard(1);
    }

    @Test
    void cancel_task_on_a_command_approval_cancels_at_once_and_the_child_is_gone() throws Exception {
        ProviderWorld<MockResponsesApi> w = world(command("touch cancelled.txt", true));
        String id = w.submit("Create the file");
        long pid = w.awaitProvider().provider().orElseThrow().pid();
        respond(w, id, w.awaitPending(id), "cancel_task");
        assertEquals("cancelled", w.probe.task(id).get("status").asText(), "terminal when the response returns");
        awaitGone(pid);
        assertFalse(Files.exists(w.proj.resolve("cancelled.txt")));
        w.probe.awaitNoGuard(1);
        w.probe.awaitLeaseReleased(1);
    }

    /**
     * The task's agent spawns a sub-agent ({@code multi_agent_v1.spawn_agent}, whose requests are the ones with
     * {@code SUBAGENT} in the last user message), waits for it, and answers {@code main done}; the sub-agent runs
     * {@code steps} one after the other, then answers {@code sub done}.
     */
    static MockResponsesApi.Script subagent(List<Reply.Call> steps) {
        return r -> {
            if (r.lastUserText().contains("SUBAGENT")) {
                return steps.stream()
                        .filter(c -> r.callOutput(c.callId()).isEmpty())
                        .<Reply>map(c -> c)
                        .findFirst()
                        .orElse(new Reply.Text("sub done"));
            }
            Optional<JsonNode> spawned = r.callOutput("call_spawn");
            if (spawned.isEmpty()) {
                return new Reply.Call(
                        "call_spawn",
                        "multi_agent_v1.spawn_agent",
                        MockResponsesApi.json("{\"message\":\"SUBAGENT go\"}"));
            }
            if (r.callOutput("call_wait").isEmpty()) {
                String agent = MockResponsesApi.json(
                                spawned.get().path("output").asText())
                        .path("agent_id")
                        .asText();
                return new Reply.Call(
                        "call_wait",
                        "multi_agent_v1.wait_agent",
                        MockResponsesApi.json("{\"targets\":[\"" + agent + "\"],\"timeout_ms\":60000}"));
            }
            return new Reply.Text("main done");
        };
    }

    /** An {@code exec_command} call whose command Codex runs as a patch (an {@code apply_patch} heredoc). */
    static Reply.Call addFile(String callId, String path) {
        String cmd = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: " + path + "\n+text\n*** End Patch\nEOF\n";
        return new Reply.Call(
                callId, "exec_command", MockModelServer.JSON.createObjectNode().put("cmd", cmd));
    }

    @Test
    void a_sub_agents_commands_and_file_changes_are_task_events_and_its_patch_approval_shows_the_files()
            throws Exception {
        ProviderWorld<MockResponsesApi> w = world(subagent(List.of(
                new Reply.Call(
                        "call_sub_cmd",
                        "exec_command",
                        MockResponsesApi.json("{\"cmd\":\"echo sub > sub-plain.txt\"}")),
                addFile("call_sub_in", "sub-in.txt"),
                addFile("call_sub_out", "../outside-sub.txt"))));
        String id = w.submit("Delegate the work");
        JsonNode pending = w.awaitPending(id);
        JsonNode payload = pending.get("payload");
        assertEquals("file_change", payload.get("category").asText(), payload.toString());
        assertEquals(
                "[{\"kind\":\"add\",\"path\":\"<outside-workdir>\"}]",
                String.valueOf(payload.get("file_changes")),
                "the sub-agent's patch approval shows its files: " + payload);
        assertEquals(1, payload.path("subagent").asInt(), "the approval names the sub-agent: " + payload);
        assertTrue(payload.get("title").asText().startsWith("Sub-agent 1: "), payload.toString());
        respond(w, id, pending, "deny");
        JsonNode task = w.awaitStatus(id, "succeeded");
        assertEquals("main done", task.get("final_response").asText(), "the task's answer is its own agent's");
        assertTrue(Files.exists(w.proj.resolve("sub-plain.txt")));
        assertFalse(Files.exists(w.proj.resolveSibling("outside-sub.txt")), "the denied patch was not applied");

        JsonNode events = w.mcp.call("read_agent_task_events", Map.of("task_id", id, "limit", 500))
                .ok()
                .get("events");
        List<JsonNode> completed = new java.util.ArrayList<>();
        events.forEach(e -> {
            if (e.get("event_type").asText().equals("item.completed")) {
                completed.add(e.get("payload"));
            }
        });
        assertTrue(
                completed.stream()
                        .anyMatch(p -> p.path("type").asText().equals("commandExecution")
                                && p.path("command").asText().contains("echo sub > sub-plain.txt")
                                && p.path("subagent").asInt() == 1),
                "the sub-agent's command is a task event, marked: " + completed);
        assertTrue(
                completed.stream()
                        .anyMatch(p -> p.path("type").asText().equals("fileChange")
                                && p.path("changes").toString().contains("\"sub-in.txt\"")
                                && p.path("subagent").asInt() == 1),
                "the sub-agent's file change is a task event, marked: " + completed);
        String all = events.toString();
        assertFalse(all.contains("sub done"), "the sub-agent's message is not the task's: " + all);
        String agent = MockResponsesApi.json(w.mock.requests().stream()
                        .flatMap(r -> r.callOutput("call_spawn").stream())
                        .findFirst()
                        .orElseThrow()
                        .path("output")
                        .asText())
                .path("agent_id")
                .asText();
        assertFalse(agent.isEmpty() || all.contains(agent), "no event carries the sub-agent's native thread id");
        assertFalse(all.contains(w.proj.toString()), "no event carries the host path");
        w.probe.awaitNoGuard(1);
    }

    @Test
    void a_question_answered_through_answer_agent_question_reaches_the_model() throws Exception {
        String ask = "{\"questions\":[{\"id\":\"color\",\"header\":\"Color\",\"question\":\"Which color?\","
                + "\"options\":[{\"label\":\"Red\",\"description\":\"warm\"},"
                + "{\"label\":\"Blue\",\"description\":\"cold\"}]}]}";
        ProviderWorld<MockResponsesApi> w = world(r -> r.callOutput("call_ask_1")
                .<Reply>map(out -> new Reply.Text("Answer seen: " + out.path("output")))
                .orElseGet(() -> new Reply.Call("call_ask_1", "request_user_input", MockResponsesApi.json(ask))));
        String id = w.submit("Ask me a question");
        JsonNode pending = w.awaitPending(id);
        assertEquals("question", pending.get("kind").asText());
        JsonNode question = pending.get("payload").get("questions").get(0);
        assertEquals("color", question.get("question_id").asText());
        assertEquals("Which color?", question.get("prompt").asText());
        assertEquals("Blue", question.get("options").get(1).get("label").asText());
        String blue = question.get("options").get(1).get("option_id").asText();
        w.mcp.call(
                        "answer_agent_question",
                        Map.of(
                                "task_id",
                                id,
                                "request_id",
                                pending.get("request_id").asText(),
                                "answers",
                                List.of(Map.of("question_id", "color", "selected_option_ids", List.of(blue)))))
                .ok();
        JsonNode task = w.awaitStatus(id, "succeeded");
        String output = w.mock.requests()
                .getLast()
                .callOutput("call_ask_1")
                .orElseThrow()
                .toString();
        assertTrue(output.contains("Blue") && !output.contains("Red"), output);
        assertTrue(task.get("final_response").asText().contains("Blue"), task.toString());
    }

    @Test
    void send_agent_message_steers_a_slow_turn_and_the_model_receives_the_steer_text() throws Exception {
        ProviderWorld<MockResponsesApi> w = world(r -> r.text().contains("faster please")
                ? new Reply.Text("Steered.")
                : new Reply.Slow("Working", "Still working."));
        String id = w.submit("Work slowly");
        w.mock.awaitRequests(1, WAIT);
        w.awaitStatus(id, "running");
        w.mcp.call("send_agent_message", Map.of("task_id", id, "message", "faster please"))
                .ok();
        w.mock.release();
        JsonNode task = w.awaitStatus(id, "succeeded");
        assertTrue(
                w.mock.requests().stream().anyMatch(r -> r.text().contains("faster please")),
                "the steer text reached the model");
        assertEquals("Steered.", task.get("final_response").asText());
    }

    @Test
    void cancel_agent_task_on_a_slow_turn_cancels_at_once_the_child_is_gone_lease_and_guard_released()
            throws Exception {
        ProviderWorld<MockResponsesApi> w = world(r -> new Reply.Stall("Thinking slowly..."));
        String id = w.submit("Think slowly");
        long pid = w.awaitProvider().provider().orElseThrow().pid();
        w.mock.awaitRequests(1, WAIT);
        assertTrue(PinnedCli.runsUnder(bin, pid), "the codex child runs");
        long cancelled = System.nanoTime();
        JsonNode out = w.mcp.call("cancel_agent_task", Map.of("task_id", id)).ok();
        assertEquals("cancelled", out.get("status").asText(), "terminal before the call returns (v0.7.3 §14.1)");
        awaitGone(pid);
        assertTrue(Duration.ofNanos(System.nanoTime() - cancelled).compareTo(STOP_BOUND) < 0);
        assertTrue(w.mock.awaitStallEnded(WAIT), "the model stream was closed");
        w.probe.awaitNoGuard(1);
        w.probe.awaitLeaseReleased(1);
        assertEquals("cancelled", w.probe.task(id).get("status").asText());
    }

    @Test
    void continue_from_task_id_resumes_the_same_thread_and_the_model_sees_the_earlier_conversation() throws Exception {
        ProviderWorld<MockResponsesApi> w =
                world(r -> new Reply.Text(r.lastUserText().contains("PELICAN") ? "Noted." : "It was the pelican."));
        String first = w.submit("Remember the word PELICAN");
        w.awaitStatus(first, "succeeded");
        w.probe.awaitLeaseReleased(1);
        Map<String, Object> next = AgentServeIT.submit("proj", "codex", "Which word did I ask you to remember?");
        next.put("continue_from_task_id", first);
        String second = AgentServeIT.created(w.mcp.call("submit_agent_task", next));
        JsonNode task = w.awaitStatus(second, "succeeded");
        assertEquals("It was the pelican.", task.get("final_response").asText());
        MockResponsesApi.Request last = w.mock.requests().getLast();
        assertTrue(last.text().contains("Remember the word PELICAN"), "the earlier prompt is in the history");
        assertTrue(last.text().contains("Noted."), "the earlier answer is in the history");
        assertEquals(
                w.mock.requests().getFirst().body().path("prompt_cache_key"),
                last.body().path("prompt_cache_key"),
                "the same Codex thread");
    }

    /**
     * Probe S2: each start puts the workdir's transcripts right, and replaced the one a task running beside it was
     * writing: that task's answer went to the replaced file, and its continuation no longer saw it.
     */
    @Test
    void a_task_starting_beside_a_running_one_leaves_that_ones_transcript_to_it() throws Exception {
        ProviderWorld<MockResponsesApi> w = world(r -> r.lastUserText().contains("Work slowly")
                ? new Reply.Slow("Working", "Still working OSTRICH.")
                : new Reply.Text("done"));
        String running = AgentServeIT.created(
                w.mcp.call("submit_agent_task", AgentServeIT.submit("proj", "codex", "Work slowly", "review")));
        w.mock.awaitRequests(1, WAIT);
        awaitTranscriptWith(w, "Work slowly");
        String beside = AgentServeIT.created(
                w.mcp.call("submit_agent_task", AgentServeIT.submit("proj", "codex", "Say done", "review")));
        w.awaitStatus(beside, "succeeded");
        w.mock.release();
        w.awaitStatus(running, "succeeded");
        Map<String, Object> next = AgentServeIT.submit("proj", "codex", "What did you say?", "review");
        next.put("continue_from_task_id", running);
        w.awaitStatus(AgentServeIT.created(w.mcp.call("submit_agent_task", next)), "succeeded");
        assertTrue(
                w.mock.requests().getLast().text().contains("OSTRICH"),
                "the continuation sees the answer the running task gave after the other one started");
    }

    /** Waits until a Codex transcript of the workdir holds {@code text} (Codex writes it after the model is asked). */
    private static void awaitTranscriptWith(ProviderWorld<MockResponsesApi> w, String text) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            try (var files = Files.walk(w.state)) {
                if (files.filter(f -> f.getFileName().toString().startsWith("rollout-"))
                        .anyMatch(f -> contains(f, text))) {
                    return;
                }
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("no transcript holds the prompt");
    }

    private static boolean contains(Path file, String text) {
        try {
            return Files.readString(file).contains(text);
        } catch (java.io.IOException e) {
            return false; // replaced or gone meanwhile
        }
    }

    @Test
    void an_unanswered_approval_times_out_and_the_child_is_stopped() throws Exception {
        ProviderWorld<MockResponsesApi> w =
                world(command("touch late.txt", true), Map.of("SERVERFS_AGENT_INTERACTION_TIMEOUT_SECONDS", "2"));
        String id = w.submit("Create the file");
        long pid = w.awaitProvider().provider().orElseThrow().pid();
        w.awaitPending(id);
        JsonNode task = w.awaitStatus(id, "interrupted");
        assertEquals("AGENT_INTERACTION_TIMED_OUT", task.get("error_code").asText());
        awaitGone(pid);
        assertFalse(Files.exists(w.proj.resolve("late.txt")));
        w.probe.awaitNoGuard(1);
    }

    @Test
    void a_model_api_500_fails_the_task_with_agent_provider_error_well_before_the_deadline() throws Exception {
        ProviderWorld<MockResponsesApi> w = world(r -> new Reply.Status(500));
        long submitted = System.nanoTime();
        String id = w.submit("Say hello");
        JsonNode task = w.awaitStatus(id, "failed");
        assertEquals("AGENT_PROVIDER_ERROR", task.get("error_code").asText());
        assertTrue(Duration.ofNanos(System.nanoTime() - submitted).compareTo(Duration.ofSeconds(45)) < 0);
        assertTrue(w.probe.eventTypes(id).contains("provider.error"), "the API failure is an event");
        w.probe.awaitNoGuard(1);
        w.probe.awaitLeaseReleased(1);
    }

    @Test
    void a_child_killed_mid_turn_fails_the_task_disconnected_and_the_guard_clears_on_the_observed_exit()
            throws Exception {
        ProviderWorld<MockResponsesApi> w = world(r -> new Reply.Stall("Working..."));
        String id = w.submit("Work slowly");
        long pid = w.awaitProvider().provider().orElseThrow().pid();
        w.mock.awaitRequests(1, WAIT);
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        JsonNode task = w.awaitStatus(id, "failed");
        assertEquals("AGENT_PROVIDER_DISCONNECTED", task.get("error_code").asText());
        w.probe.awaitNoGuard(1);
        w.probe.awaitLeaseReleased(1);
    }

    @Test
    void a_killed_serve_takes_its_confined_codex_with_it_and_the_restart_clears_the_guard() throws Exception {
        ProviderWorld<MockResponsesApi> w = world(r -> new Reply.Stall("Working..."));
        String id = w.submit("Work slowly");
        var guard = w.awaitProvider();
        assertEquals(id, guard.taskId().value());
        w.mock.awaitRequests(1, WAIT);
        List<ProcessHandle> codex = PinnedCli.running(bin);
        assertEquals(1, codex.size(), "one codex child runs");
        // Stopped, Codex cannot see its stdin close: only the sandbox's --die-with-parent can end it (issue 24 item 9).
        signal("STOP", codex.getFirst().pid());
        w.serve.kill();
        codex.getFirst().onExit().get(STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        assertTrue(w.probe.leases().readGuard(1).isPresent(), "nobody cleared the guard of the killed serve");
        w.startServe();
        assertTrue(
                w.mcp.call("create_text_file", Map.of("workdir", "proj", "path", "n.txt", "content", "x"))
                                .error()
                        == null,
                "the recorded provider is gone: the restart clears the guard");
        assertTrue(w.probe.leases().readGuard(1).isEmpty());
    }

    private static void signal(String name, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid))
                .redirectErrorStream(true)
                .start();
        kill.getInputStream().readAllBytes();
        kill.waitFor(10, TimeUnit.SECONDS);
    }

    /**
     * Probe T: the view's {@code /proc/self/mountinfo} names the host directories its mounts come from (the serving
     * user's home, the state directory with the workdir's provider home). A task that reads it (Codex runs {@code cat}
     * without asking) and answers with what it read must not hand those paths to the client, nor another workdir's
     * root: the final response, the events and the command output name them {@code <outside-workdir>}. Failed before
     * the redaction knew more than the task's own workdir root. Run embedded in {@code serve} and in the split
     * deployment's {@code serverfs bridge}.
     */
    @ParameterizedTest
    @ValueSource(strings = {"true", "false"})
    void what_a_task_reads_of_its_mounts_names_no_host_directory_of_serverfs(String embedded) throws Exception {
        Path other = Files.createDirectories(dir.resolve("other"));
        world = CodexWorld.start(
                dir,
                bin,
                command("cat /proc/self/mountinfo", false),
                Map.of(
                        "WORKDIR_02_ALIAS",
                        "other",
                        "WORKDIR_02_PATH",
                        other.toString(),
                        "WORKDIR_02_READ_ONLY",
                        "true",
                        "SERVERFS_AGENT_EMBEDDED",
                        embedded));
        String id = world.submit("Show me your mounts");
        JsonNode task = world.finish(id, "approve_once");
        String response = task.get("final_response").asText();
        String events = world.mcp
                .call("read_agent_task_events", Map.of("task_id", id, "limit", 500))
                .ok()
                .toString();
        assertTrue(response.contains(" /proc "), "the command's output came back (the view's /proc mount)");
        assertTrue(response.contains("<workdir>"), "the task's workdir is shown as <workdir>");

        Map<String, Path> hidden = new LinkedHashMap<>();
        hidden.put("the serving user's home", world.home);
        hidden.put("the state directory", world.state);
        hidden.put("the workdir's provider home", world.state.resolve("provider-homes"));
        hidden.put("the lock directory", world.locks);
        hidden.put("another workdir", other);
        hidden.put("the operator's CODEX_HOME", Path.of(world.vars.get("CODEX_HOME")));
        assertAll(hidden.entrySet().stream().<Executable>mapMulti((e, out) -> {
            String path = e.getValue().toString();
            out.accept(() -> assertFalse(response.contains(path), e.getKey() + " appears in the final response"));
            out.accept(() -> assertFalse(events.contains(path), e.getKey() + " appears in the task's events"));
        }));
    }
}
