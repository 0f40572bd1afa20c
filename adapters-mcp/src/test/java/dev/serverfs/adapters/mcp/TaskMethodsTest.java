package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The Tasks extension at the dispatcher: gated on the request's declaration, absent from the session era, task
 * handles flat with {@code resultType: "task"}, responses to keys that are not outstanding ignored, a malformed
 * response to an outstanding key refused before the task's source sees it.
 */
class TaskMethodsTest {

    private static final Instant T0 = Instant.parse("2026-07-28T10:00:00Z");
    private static final String EXT = "io.modelcontextprotocol/tasks";

    private final Fixtures.RecordingAuditLog audit = new Fixtures.RecordingAuditLog();
    private final List<Map<String, ToolTasks.Response>> updates = new ArrayList<>();
    private final List<String> cancels = new ArrayList<>();
    private ToolTask.State state = new ToolTask.State.InputRequired(
            Map.of("k1", new ToolTask.Form("Sure?", Json.object().put("type", "object"))));

    /** One task, {@code t-1}, whose state the test sets. */
    private final ToolTasks tasks = new ToolTasks() {
        @Override
        public Optional<ToolTask> get(String taskId) {
            return taskId.equals("t-1")
                    ? Optional.of(new ToolTask(
                            "t-1", state, T0, T0, Optional.empty(), Duration.ofMillis(500), Optional.of("busy")))
                    : Optional.empty();
        }

        @Override
        public ToolResult update(String taskId, Map<String, Response> responses) {
            updates.add(responses);
            if (responses.values().stream().anyMatch(r -> r.content().has("bad"))) {
                throw new ServerFsException(ErrorCode.INVALID_QUESTION_ANSWER, "no");
            }
            return ToolResult.of(Map.of()).withCounter("task_id", taskId).withCounter("request_id", "k1");
        }

        @Override
        public ToolResult cancel(String taskId) {
            cancels.add(taskId);
            return ToolResult.of(Map.of()).withCounter("task_id", taskId);
        }
    };

    private record Job(ToolTasks tasks, boolean requiresTask) implements TaskTool {
        @Override
        public ToolSpec spec() {
            return new ToolSpec("job", "A job", ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM)
                    .withSchema("list_workdirs");
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            return ToolResult.of(Map.of("ran", "inline"));
        }

        @Override
        public Started start(ToolArguments arguments) {
            return new Started("t-1", ToolResult.of(Map.of()).withCounter("task_id", "t-1"));
        }
    }

    private McpDispatcher dispatcher(McpTool... tools) {
        ToolRegistry registry = new ToolRegistry(List.of(tools), EnumSet.allOf(ToolSurface.class));
        return new McpDispatcher(
                registry,
                new ToolInvoker(registry, audit),
                new McpSessions(new MutableClock(T0), Duration.ofMinutes(5), 10),
                "test",
                EnumSet.of(ToolSurface.FILESYSTEM));
    }

    private static RequestMeta meta(boolean declares) {
        ObjectNode capabilities = Json.object();
        if (declares) {
            capabilities.putObject("extensions").putObject(EXT);
        }
        return new RequestMeta("2026-07-28", capabilities, null);
    }

    /** A stateless request as the transport serves it: its {@code _meta} bound for the call (RequestMeta.CURRENT). */
    private static McpDispatcher.Answer call(McpDispatcher d, boolean declares, String method, String params) {
        RequestMeta meta = meta(declares);
        return ScopedValue.where(RequestMeta.CURRENT, meta)
                .call(() -> d.stateless(meta, IntNode.valueOf(1), method, Json.read(params.getBytes())));
    }

    private static JsonNode result(McpDispatcher.Answer answer) {
        assertEquals(200, answer.status(), answer.body().toString());
        return Json.read(Json.writeBytes(answer.body())).get("result");
    }

    @Test
    void discover_announces_the_extension_only_when_a_tool_runs_as_a_task() {
        McpDispatcher with = dispatcher(new Job(tasks, false));
        McpDispatcher without = dispatcher(Fixtures.listWorkdirsTool());

        assertTrue(result(call(with, false, "server/discover", "{}"))
                .at("/capabilities/extensions")
                .has(EXT));
        assertNull(result(call(without, false, "server/discover", "{}"))
                .at("/capabilities")
                .get("extensions"));
        assertEquals(
                404, call(without, true, "tasks/get", "{\"taskId\":\"t-1\"}").status());
    }

    @Test
    void a_declaring_call_answers_a_flat_handle_and_the_others_run_the_tool_as_before() {
        McpDispatcher d = dispatcher(new Job(tasks, false));

        JsonNode handle = result(call(d, true, "tools/call", "{\"name\":\"job\"}"));
        JsonNode plain = result(call(d, false, "tools/call", "{\"name\":\"job\"}"));
        McpDispatcher.Initialized init =
                d.initialize(IntNode.valueOf(0), Json.object().put("protocolVersion", "2025-11-25"));
        ObjectNode session = d.request(
                init.session().orElseThrow(),
                IntNode.valueOf(2),
                "tools/call",
                Json.object().put("name", "job"));

        assertEquals("task", handle.get("resultType").asText());
        assertEquals("t-1", handle.get("taskId").asText());
        assertEquals("input_required", handle.get("status").asText());
        assertTrue(handle.get("ttlMs").isNull(), "unlimited");
        assertEquals(500, handle.get("pollIntervalMs").asInt());
        assertEquals("2026-07-28T10:00:00.000000Z", handle.get("createdAt").asText());
        assertFalse(handle.has("inputRequests") || handle.has("result") || handle.has("task"), handle.toString());
        assertEquals("complete", plain.get("resultType").asText());
        assertEquals("inline", plain.at("/structuredContent/ran").asText());
        assertEquals(
                "inline",
                Json.read(Json.writeBytes(session))
                        .at("/result/structuredContent/ran")
                        .asText(),
                "the session era has no Tasks extension (SEP-2663)");
        assertEquals(
                -32601,
                d.request(
                                init.session().get(),
                                IntNode.valueOf(3),
                                "tasks/get",
                                Json.object().put("taskId", "t-1"))
                        .at("/error/code")
                        .asInt());
    }

    /**
     * The task exists once {@code start} returned; a source that cannot show it a moment later (a Bridge gone right
     * after the submit) does not turn the call into an error that would lose the task's id: the handle says working.
     */
    @Test
    void a_task_its_source_cannot_read_back_at_once_is_answered_as_working() {
        ToolTasks gone = new ToolTasks() {
            @Override
            public Optional<ToolTask> get(String taskId) {
                throw new ServerFsException(ErrorCode.AGENT_BRIDGE_UNAVAILABLE, "gone");
            }

            @Override
            public ToolResult update(String taskId, Map<String, Response> responses) {
                throw new AssertionError("no update");
            }

            @Override
            public ToolResult cancel(String taskId) {
                throw new AssertionError("no cancel");
            }
        };
        McpDispatcher d = dispatcher(new Job(gone, false));

        JsonNode handle = result(call(d, true, "tools/call", "{\"name\":\"job\"}"));

        assertEquals("task", handle.get("resultType").asText());
        assertEquals("t-1", handle.get("taskId").asText());
        assertEquals("working", handle.get("status").asText());
        assertTrue(handle.get("pollIntervalMs").asInt() > 0);
    }

    @Test
    void without_the_declaration_the_tasks_methods_and_a_task_only_tool_are_refused_with_32021() {
        McpDispatcher d = dispatcher(new Job(tasks, true));

        for (String method : List.of("tasks/get", "tasks/update", "tasks/cancel")) {
            McpDispatcher.Answer answer = call(d, false, method, "{\"taskId\":\"t-1\",\"inputResponses\":{}}");
            assertEquals(400, answer.status());
            assertEquals(-32021, answer.body().at("/error/code").asInt());
            assertTrue(answer.body()
                    .at("/error/data/requiredCapabilities/extensions")
                    .has(EXT));
        }
        for (String notDeclared : List.of("false", "null", "true", "[]")) {
            ObjectNode capabilities = Json.object();
            capabilities.putObject("extensions").set(EXT, Json.read(notDeclared.getBytes()));
            RequestMeta meta = new RequestMeta("2026-07-28", capabilities, null);
            McpDispatcher.Answer answer = ScopedValue.where(RequestMeta.CURRENT, meta)
                    .call(() -> d.stateless(
                            meta, IntNode.valueOf(1), "tasks/get", Json.object().put("taskId", "t-1")));
            assertEquals(-32021, answer.body().at("/error/code").asInt(), "extension declared as " + notDeclared);
        }
        McpDispatcher.Answer job = call(d, false, "tools/call", "{\"name\":\"job\"}");
        assertEquals(-32021, job.body().at("/error/code").asInt());
        assertTrue(job.body().at("/error/data/requiredCapabilities/extensions").has(EXT));
        assertTrue(updates.isEmpty() && cancels.isEmpty());
    }

    @Test
    void tasks_get_inlines_the_state_and_an_unknown_id_is_invalid_params() {
        McpDispatcher d = dispatcher(new Job(tasks, false));

        JsonNode waiting = result(call(d, true, "tasks/get", "{\"taskId\":\"t-1\"}"));
        assertEquals("complete", waiting.get("resultType").asText());
        assertEquals(
                "elicitation/create", waiting.at("/inputRequests/k1/method").asText());
        assertEquals("form", waiting.at("/inputRequests/k1/params/mode").asText());
        assertEquals("Sure?", waiting.at("/inputRequests/k1/params/message").asText());
        state = new ToolTask.State.CompletedWithError(new ServerFsException(ErrorCode.READ_FAILED, "broken"));
        JsonNode toolError = result(call(d, true, "tasks/get", "{\"taskId\":\"t-1\"}"));
        assertEquals("completed", toolError.get("status").asText());
        assertTrue(toolError.at("/result/isError").asBoolean());
        state = new ToolTask.State.Failed(ErrorCode.AGENT_PROVIDER_ERROR, "gone");
        JsonNode failed = result(call(d, true, "tasks/get", "{\"taskId\":\"t-1\"}"));
        assertEquals("AGENT_PROVIDER_ERROR", failed.at("/error/data/code").asText());
        assertFalse(failed.has("result"));

        assertEquals(
                -32602,
                call(d, true, "tasks/get", "{\"taskId\":\"nope\"}")
                        .body()
                        .at("/error/code")
                        .asInt());
        assertEquals(
                -32602,
                call(d, true, "tasks/cancel", "{\"taskId\":\"nope\"}")
                        .body()
                        .at("/error/code")
                        .asInt());
        assertEquals(
                -32602,
                call(d, true, "tasks/get", "{}").body().at("/error/code").asInt());
    }

    @Test
    void tasks_update_passes_only_outstanding_keys_and_refuses_a_malformed_one_before_the_source_sees_it() {
        McpDispatcher d = dispatcher(new Job(tasks, false));

        JsonNode ignored =
                result(call(d, true, "tasks/update", "{\"taskId\":\"t-1\",\"inputResponses\":{\"old\":{\"x\":1}}}"));
        McpDispatcher.Answer malformed = call(
                d, true, "tasks/update", "{\"taskId\":\"t-1\",\"inputResponses\":{\"k1\":{\"action\":\"maybe\"}}}");
        assertTrue(updates.isEmpty(), "nothing reached the source");
        JsonNode ack = result(call(
                d,
                true,
                "tasks/update",
                "{\"taskId\":\"t-1\",\"inputResponses\":{\"k1\":{\"action\":\"accept\",\"content\":{\"ok\":true}},"
                        + "\"k9\":{\"action\":\"accept\"}}}"));
        McpDispatcher.Answer refused = call(
                d,
                true,
                "tasks/update",
                "{\"taskId\":\"t-1\",\"inputResponses\":{\"k1\":{\"action\":\"accept\",\"content\":{\"bad\":1}}}}");

        assertEquals("{\"resultType\":\"complete\"}", ignored.toString());
        assertEquals(-32602, malformed.body().at("/error/code").asInt());
        assertEquals("{\"resultType\":\"complete\"}", ack.toString());
        assertEquals(2, updates.size());
        assertEquals(List.of("k1"), List.copyOf(updates.get(0).keySet()));
        assertEquals(ToolTasks.Action.ACCEPT, updates.get(0).get("k1").action());
        assertTrue(updates.get(0).get("k1").content().get("ok").asBoolean());
        assertEquals(-32602, refused.body().at("/error/code").asInt());
        assertEquals(
                "INVALID_QUESTION_ANSWER", refused.body().at("/error/data/code").asText());
        assertTrue(audit.events().stream()
                .anyMatch(e -> e.tool().equals("tasks/update")
                        && e.success()
                        && "k1".equals(e.counters().get("request_id"))));
    }

    @Test
    void every_tasks_request_writes_one_audit_line_and_a_refused_one_for_a_known_task_names_it() {
        McpDispatcher d = dispatcher(new Job(tasks, false));

        call(d, true, "tasks/update", "{\"taskId\":\"t-1\",\"inputResponses\":{\"k1\":{\"action\":\"maybe\"}}}");
        call(
                d,
                true,
                "tasks/update",
                "{\"taskId\":\"t-1\",\"inputResponses\":{\"k1\":{\"action\":\"accept\",\"content\":{\"bad\":1}}}}");
        call(d, true, "tasks/get", "{\"taskId\":\"nope\"}");
        call(d, true, "tasks/cancel", "{}");

        // docs/AGENTS.md: each tasks/* request writes one tool_call audit line named after the method, with the task
        // id.
        List<AuditLog.ToolCall> events = audit.events();
        assertEquals(4, events.size(), events.toString());
        assertEquals(Optional.of("INVALID_ARGUMENTS"), events.get(0).errorCode());
        assertEquals("t-1", events.get(0).counters().get("task_id"));
        assertEquals(Optional.of("INVALID_QUESTION_ANSWER"), events.get(1).errorCode());
        assertEquals("t-1", events.get(1).counters().get("task_id"));
        assertEquals(Optional.of("NOT_FOUND"), events.get(2).errorCode());
        assertNull(events.get(2).counters().get("task_id"), "an id the server does not know is not logged");
        assertEquals("tasks/cancel", events.get(3).tool());
        assertEquals(Optional.of("INVALID_ARGUMENTS"), events.get(3).errorCode());
    }

    @Test
    void tasks_cancel_asks_the_source_and_acknowledges_with_an_empty_result() {
        McpDispatcher d = dispatcher(new Job(tasks, false));

        JsonNode ack = result(call(d, true, "tasks/cancel", "{\"taskId\":\"t-1\"}"));

        assertEquals("{\"resultType\":\"complete\"}", ack.toString());
        assertEquals(List.of("t-1"), cancels);
    }

    /** A task tool that asks for a name over a multi round-trip first and starts its task with the answer. */
    private record Gathering(ToolTasks tasks, List<String> started) implements TaskTool {
        @Override
        public ToolSpec spec() {
            return new Job(tasks, true).spec();
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            return ToolResult.of(Map.of());
        }

        @Override
        public Started start(ToolArguments arguments) {
            throw new AssertionError("the round-aware start is the one called");
        }

        @Override
        public StartReply start(ToolArguments arguments, InputRound round) {
            Optional<Object> name = round.accepted("who").map(content -> content.get("name"));
            if (name.isEmpty()) {
                return InputRequired.of(Map.of("who", InputRequest.form("Name?", Map.of("name", "string"))));
            }
            started.add(String.valueOf(name.get()));
            return new Started("t-1", ToolResult.of(Map.of()).withCounter("task_id", "t-1"));
        }
    }

    /** Declares the extension and form elicitation, as a client that can answer the first round does. */
    private static McpDispatcher.Answer callEliciting(McpDispatcher d, String params) {
        ObjectNode capabilities = Json.object();
        capabilities.putObject("extensions").putObject(EXT);
        capabilities.putObject("elicitation");
        RequestMeta meta = new RequestMeta("2026-07-28", capabilities, null);
        return ScopedValue.where(RequestMeta.CURRENT, meta)
                .call(() -> d.stateless(meta, IntNode.valueOf(1), "tools/call", Json.read(params.getBytes())));
    }

    @Test
    void a_task_tool_gathers_input_over_a_multi_round_trip_first_and_the_retry_creates_the_task() {
        List<String> started = new ArrayList<>();
        McpDispatcher d = dispatcher(new Gathering(tasks, started));

        JsonNode first = result(callEliciting(d, "{\"name\":\"job\"}"));
        McpDispatcher.Answer undeclared = call(d, true, "tools/call", "{\"name\":\"job\"}");
        ObjectNode retry = Json.object().put("name", "job");
        retry.set("requestState", first.get("requestState"));
        retry.putObject("inputResponses")
                .putObject("who")
                .put("action", "accept")
                .putObject("content")
                .put("name", "Alice");
        JsonNode handle = result(callEliciting(d, retry.toString()));

        assertEquals("input_required", first.get("resultType").asText());
        assertEquals("elicitation/create", first.at("/inputRequests/who/method").asText());
        assertFalse(first.has("taskId"), "no task before the last round");
        assertEquals(-32021, undeclared.body().at("/error/code").asInt(), "elicitation was not declared");
        assertEquals("task", handle.get("resultType").asText());
        assertEquals("t-1", handle.get("taskId").asText());
        assertFalse(handle.has("requestState") || handle.has("inputRequests"), handle.toString());
        assertEquals(List.of("Alice"), started);
        assertEquals(
                3,
                audit.events().stream().filter(e -> e.tool().equals("job")).count(),
                "one audit event a round, the refused one too");
    }
}
