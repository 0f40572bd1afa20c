package dev.serverfs.adapters.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.SubmitAgentTaskCommand;
import dev.serverfs.application.port.in.TaskHandle;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskStatus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The client parses the Bridge's answers into the in-port read models, and nothing else: the submit handle is the
 * Bridge's answer with the starting directory and profile the client sent (one call), and an answer that breaks a
 * read model's rules is {@code AGENT_BRIDGE_PROTOCOL_ERROR}.
 */
class BridgeClientTest {
    private static final String ID = "agt_0123456789abcdef01234567";

    private final Deque<String> answers = new ArrayDeque<>();
    private final List<String> methods = new ArrayList<>();
    private final List<String> requests = new ArrayList<>();
    private final BridgeClient client = new BridgeClient(
            request -> {
                String line = new String(request, StandardCharsets.UTF_8);
                requests.add(line);
                methods.add(line.replaceAll(".*\"method\":\"([a-z.]+)\".*\\n?", "$1"));
                return ("{\"request_id\":\"mcp_1\",\"ok\":true,\"result\":" + answers.removeFirst() + "}")
                        .getBytes(StandardCharsets.UTF_8);
            },
            () -> "mcp_1");

    private static SubmitAgentTaskCommand command() {
        return SubmitAgentTaskCommand.parse(
                "fake", "docs", "p", "./src/", "review", Optional.empty(), Optional.of("conv-1"), Optional.of("key-1"));
    }

    private static String view(String status, String extra) {
        return "{\"task_id\":\"" + ID + "\",\"runtime\":\"fake\",\"workdir_alias\":\"docs\",\"workdir_slot\":2,"
                + "\"relative_cwd\":\"src\",\"profile\":\"review\",\"status\":\"" + status + "\","
                + "\"created_at\":\"2026-03-01T10:00:00.000000Z\",\"started_at\":\"2026-03-01T10:00:01.000000Z\","
                + "\"updated_at\":\"2026-03-01T10:00:02.000000Z\",\"completed_at\":null,"
                + "\"deadline_at\":\"2026-03-01T12:00:00.000000Z\",\"continue_from_task_id\":null,"
                + "\"correlation_id\":\"conv-1\",\"idempotency_key\":\"key-1\",\"final_response\":null,"
                + "\"manifest\":{},\"manifest_sha256\":\"" + "a".repeat(64) + "\",\"error_code\":null,"
                + "\"error_message\":null,\"pending_request_id\":null,\"final_response_truncated\":false,"
                + "\"result\":null" + extra + "}";
    }

    @Test
    void the_handle_is_the_answer_with_the_normalised_cwd_and_the_profile_sent_in_one_call() {
        answers.add("{\"task_id\":\"" + ID + "\",\"status\":\"queued\",\"correlation_id\":\"conv-1\","
                + "\"idempotency_key\":\"key-1\"}");
        TaskHandle handle = client.submit(command()).handle();
        assertEquals(
                new TaskHandle(
                        new TaskId(ID),
                        TaskStatus.QUEUED,
                        Optional.of(new CorrelationId("conv-1")),
                        Optional.of(new IdempotencyKey("key-1")),
                        "src",
                        TaskProfile.REVIEW),
                handle);
        assertEquals(List.of("task.submit"), methods);
    }

    @Test
    void fields_refused_on_this_side_go_to_the_bridge_as_the_caller_wrote_them() {
        answers.add("{\"task_id\":\"" + ID + "\",\"status\":\"queued\",\"correlation_id\":null,"
                + "\"idempotency_key\":null}");
        // The Bridge refuses them at their place in the order; here the scripted Bridge simply answers.
        assertThrows(
                ServerFsException.class,
                () -> client.submit(SubmitAgentTaskCommand.parse(
                        "qoder", "docs", "p", "", "bogus", Optional.empty(), Optional.of("a\u0001"), Optional.of(""))));
        String sent = requests.getFirst();
        assertTrue(sent.contains("\"runtime\":\"qoder\""), sent);
        assertTrue(sent.contains("\"profile\":\"bogus\""), sent);
        assertTrue(sent.contains("\"correlation_id\":\"a\\u0001\""), sent);
        assertTrue(sent.contains("\"idempotency_key\":\"\""), sent);
    }

    @Test
    void a_view_whose_runtime_is_no_runtime_name_is_a_protocol_error() {
        // A well-formed name this side has no runtime for (a newer Bridge's) is rendered as it is; only a value no
        // runtime could be named breaks the wire.
        answers.add(view("running", "").replace("\"runtime\":\"fake\"", "\"runtime\":\"Qoder CLI\""));
        assertEquals(
                ErrorCode.AGENT_BRIDGE_PROTOCOL_ERROR,
                assertThrows(ServerFsException.class, () -> client.get(new TaskId(ID)))
                        .code());
    }

    @Test
    void a_bad_handle_is_a_protocol_error() {
        answers.add("{\"task_id\":\"" + ID + "\",\"status\":\"sleeping\",\"correlation_id\":null,"
                + "\"idempotency_key\":null}");
        ServerFsException e = assertThrows(ServerFsException.class, () -> client.submit(command()));
        assertEquals(ErrorCode.AGENT_BRIDGE_PROTOCOL_ERROR, e.code());
        assertEquals(List.of("task.submit"), methods);
    }

    @Test
    void a_view_that_breaks_the_task_state_rules_is_a_protocol_error() {
        answers.add(view("succeeded", ""));
        ServerFsException e = assertThrows(ServerFsException.class, () -> client.get(new TaskId(ID)));
        assertEquals(ErrorCode.AGENT_BRIDGE_PROTOCOL_ERROR, e.code(), "succeeded without completed_at or result");
        answers.add(view("running", "").replace("\"workdir_slot\":2", "\"workdir_slot\":17"));
        assertEquals(
                ErrorCode.AGENT_BRIDGE_PROTOCOL_ERROR,
                assertThrows(ServerFsException.class, () -> client.get(new TaskId(ID)))
                        .code());
        answers.add(view("running", ""));
        assertEquals(TaskStatus.RUNNING, client.get(new TaskId(ID)).status(), "the same view, well formed, reads");
    }
}
