package dev.serverfs.adapters.mcp.tools.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.mcp.ToolTask;
import dev.serverfs.adapters.mcp.ToolTasks;
import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.in.CancelAgentTaskUseCase;
import dev.serverfs.application.port.in.GetAgentTaskUseCase;
import dev.serverfs.application.port.in.InteractionAck;
import dev.serverfs.application.port.in.SendAgentMessageUseCase;
import dev.serverfs.application.port.in.TaskView;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.InteractionKind;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.ResultStorage;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.StoredManifest;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskResult;
import dev.serverfs.domain.task.TaskStatus;
import dev.serverfs.domain.workdir.WorkdirAlias;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The Agent's pending requests as elicitation forms and the form's answers on the tool paths: an approval's offered
 * decisions and requested permissions, a question's options and free text; {@code decline} of an approval is {@code
 * deny}, a dismissed form answers nothing, a request no longer outstanding is ignored, a refused answer is not.
 */
class AgentTasksTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-07-28T10:00:00Z");
    private static final TaskId TASK = new TaskId("agt_0123456789abcdef01234567");
    private static final RequestId REQUEST = new RequestId("req_0123456789abcdef01234567");

    private static final String APPROVAL = """
            {"category":"command","title":"Run make","command_display":"make test",\
            "requested_permissions":[{"permission_id":"p1","kind":"network","details":{}}],\
            "available_decisions":["approve_once","deny"]}""";
    private static final String QUESTIONS = """
            {"questions":[{"question_id":"q1","prompt":"Which?","options":[{"option_id":"a","label":"A"},\
            {"option_id":"b","label":"B"}],"multi_select":true,"allow_free_text":false},\
            {"question_id":"q2","prompt":"Why?","options":[],"multi_select":false,"allow_free_text":true}]}""";

    private final List<String> calls = new ArrayList<>();
    private RuntimeException next;

    private static PendingRequest pending(InteractionKind kind, String payload) {
        return PendingRequest.open(REQUEST, TASK, kind, payload, T0, T0.plusSeconds(60));
    }

    private static TaskView waiting(InteractionKind kind, String payload) {
        return new TaskView(
                TASK,
                RuntimeName.of("fake"),
                new WorkdirAlias("proj"),
                1,
                "",
                TaskProfile.WORKSPACE_WRITE,
                kind == InteractionKind.APPROVAL ? TaskStatus.WAITING_FOR_APPROVAL : TaskStatus.WAITING_FOR_QUESTION,
                T0,
                Optional.of(T0),
                T0,
                Optional.empty(),
                T0.plusSeconds(7200),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                new StoredManifest("{}", "a".repeat(64)),
                Optional.empty(),
                Optional.of(REQUEST),
                Optional.of(pending(kind, payload)));
    }

    /**
     * A task without a pending request, its manifest freezing {@code retentionSeconds}: running (last updated
     * {@code at}) or succeeded (ended {@code at}), with a deadline a day after creation.
     */
    private static TaskView unattended(TaskStatus status, Instant at, long retentionSeconds) {
        boolean succeeded = status == TaskStatus.SUCCEEDED;
        return new TaskView(
                TASK,
                RuntimeName.of("fake"),
                new WorkdirAlias("proj"),
                1,
                "",
                TaskProfile.REVIEW,
                status,
                T0,
                Optional.of(T0),
                at,
                succeeded ? Optional.of(at) : Optional.empty(),
                T0.plus(Duration.ofDays(1)),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                succeeded
                        ? Optional.of(new TaskResult("done", ResultStorage.INLINE, 4, "b".repeat(64)))
                        : Optional.empty(),
                new StoredManifest(
                        "{\"limits\":{\"retention_seconds\":" + retentionSeconds + ",\"task_timeout_seconds\":86400}}",
                        "a".repeat(64)),
                Optional.empty(),
                Optional.empty(),
                Optional.empty());
    }

    private AgentTasks tasks(TaskView view) {
        AgentUseCases agent = new AgentUseCases(
                () -> List.of(),
                c -> {
                    throw new AssertionError("no submit");
                },
                (GetAgentTaskUseCase) id -> view,
                (id, after, limit) -> {
                    throw new AssertionError("no events");
                },
                (id, offset, max) -> {
                    throw new AssertionError("no result");
                },
                (taskId, requestId, resolution) -> {
                    calls.add("approval " + resolution.decision().wire() + " " + resolution.grantedPermissionIds());
                    return ack(taskId, requestId);
                },
                (taskId, requestId, answers) -> {
                    calls.add("answer " + answers);
                    return ack(taskId, requestId);
                },
                (SendAgentMessageUseCase) (taskId, message) -> {
                    throw new AssertionError("no message");
                },
                (CancelAgentTaskUseCase) id -> {
                    calls.add("cancel " + id);
                    return new CancelAgentTaskUseCase.CancelOutcome(id, TaskStatus.CANCELLED, Optional.empty());
                });
        return new AgentTasks(agent, new AgentTools(agent, List.of("codex", "claude")));
    }

    private InteractionAck ack(TaskId taskId, RequestId requestId) {
        if (next != null) {
            throw next;
        }
        return new InteractionAck(taskId, requestId, Optional.empty());
    }

    private static ToolTasks.Response response(ToolTasks.Action action, String content) throws Exception {
        return new ToolTasks.Response(action, (ObjectNode) JSON.readTree(content));
    }

    @Test
    void an_approval_is_a_form_of_its_offered_decisions_and_requested_permissions() throws Exception {
        ToolTask.Form form = AgentTasks.form(pending(InteractionKind.APPROVAL, APPROVAL));

        assertEquals("Run make\nmake test", form.message());
        JsonNode schema = form.requestedSchema();
        assertEquals(
                "[{\"const\":\"approve_once\",\"title\":\"Approve once\"},{\"const\":\"deny\",\"title\":\"Deny\"}]",
                schema.at("/properties/decision/oneOf").toString());
        assertEquals(
                "[{\"const\":\"p1\",\"title\":\"network\"}]",
                schema.at("/properties/granted_permission_ids/items/anyOf").toString());
        assertEquals("[\"decision\"]", schema.get("required").toString());
    }

    @Test
    void a_question_is_a_form_of_its_options_and_free_text() throws Exception {
        ToolTask.Form form = AgentTasks.form(pending(InteractionKind.QUESTION, QUESTIONS));

        assertEquals("Which?\nWhy?", form.message());
        JsonNode schema = form.requestedSchema();
        assertEquals("array", schema.at("/properties/q1/type").asText(), "multi-select");
        assertEquals(2, schema.at("/properties/q1/items/anyOf").size());
        assertEquals("string", schema.at("/properties/q2.text/type").asText());
        assertEquals("[\"q1\",\"q2.text\"]", schema.get("required").toString());
        ToolTask task = tasks(waiting(InteractionKind.QUESTION, QUESTIONS))
                .get(TASK.value())
                .orElseThrow();
        assertEquals("waiting_for_question", task.statusMessage().orElseThrow());
        assertTrue(((ToolTask.State.InputRequired) task.state()).requests().containsKey(REQUEST.value()));
    }

    @Test
    void decline_of_an_approval_is_deny_accept_carries_the_decision_and_cancel_answers_nothing() throws Exception {
        AgentTasks tasks = tasks(waiting(InteractionKind.APPROVAL, APPROVAL));

        tasks.update(TASK.value(), Map.of(REQUEST.value(), response(ToolTasks.Action.CANCEL, "{}")));
        tasks.update(TASK.value(), Map.of(REQUEST.value(), response(ToolTasks.Action.DECLINE, "{}")));
        tasks.update(
                TASK.value(),
                Map.of(
                        REQUEST.value(),
                        response(
                                ToolTasks.Action.ACCEPT,
                                "{\"decision\":\"approve_once\",\"granted_permission_ids\":[\"p1\"]}")));
        tasks.update(TASK.value(), Map.of("req_ffffffffffffffffffffffff", response(ToolTasks.Action.DECLINE, "{}")));

        assertEquals(List.of("approval deny Optional.empty", "approval approve_once Optional[[p1]]"), calls);
    }

    @Test
    void a_question_form_becomes_the_answers_and_only_a_request_no_longer_outstanding_is_ignored() throws Exception {
        AgentTasks tasks = tasks(waiting(InteractionKind.QUESTION, QUESTIONS));
        ToolTasks.Response answer = response(ToolTasks.Action.ACCEPT, "{\"q1\":[\"a\",\"b\"],\"q2.text\":\"because\"}");

        tasks.update(TASK.value(), Map.of(REQUEST.value(), answer));
        next = new ServerFsException(ErrorCode.REQUEST_STALE, "stale");
        tasks.update(TASK.value(), Map.of(REQUEST.value(), answer));
        next = new ServerFsException(ErrorCode.INVALID_QUESTION_ANSWER, "bad");
        ServerFsException refused = assertThrows(
                ServerFsException.class, () -> tasks.update(TASK.value(), Map.of(REQUEST.value(), answer)));

        assertEquals(ErrorCode.INVALID_QUESTION_ANSWER, refused.code());
        assertEquals(3, calls.size());
        assertTrue(
                calls.get(0).contains("q1")
                        && calls.get(0).contains("[a, b]")
                        && calls.get(0).contains("because"),
                calls.get(0));
    }

    @Test
    void a_selection_that_is_not_an_option_id_is_refused_and_answers_nothing() throws Exception {
        AgentTasks tasks = tasks(waiting(InteractionKind.QUESTION, QUESTIONS));

        for (String content : List.of("{\"q1\":[1]}", "{\"q1\":[\"a\",{\"x\":1}]}", "{\"q1\":[null]}", "{\"q1\":7}")) {
            ServerFsException refused = assertThrows(
                    ServerFsException.class,
                    () -> tasks.update(
                            TASK.value(), Map.of(REQUEST.value(), response(ToolTasks.Action.ACCEPT, content))),
                    content);
            assertEquals(ErrorCode.INVALID_QUESTION_ANSWER, refused.code(), content);
        }
        assertEquals(List.of(), calls);
    }

    @Test
    void cancel_takes_the_cancel_tool_path_and_an_unknown_or_malformed_id_is_no_task() {
        AgentTasks tasks = tasks(waiting(InteractionKind.APPROVAL, APPROVAL));

        tasks.cancel(TASK.value());

        assertEquals(List.of("cancel " + TASK.value()), calls);
        assertTrue(tasks.get("not-an-agent-task").isEmpty());
    }

    @Test
    void the_ttl_never_outlasts_what_retention_keeps() {
        Instant ended = T0.plusSeconds(60);
        Instant later = T0.plus(Duration.ofHours(2));

        // Retention (1 h) is shorter than the deadline (a day): a task that ended after a minute is deleted an hour
        // later, so it is readable for 61 minutes from its creation, not a day (read at once or two hours on).
        ToolTask finished = AgentTasks.task(unattended(TaskStatus.SUCCEEDED, ended, 3600), ended);
        ToolTask finishedLater = AgentTasks.task(unattended(TaskStatus.SUCCEEDED, ended, 3600), later);
        // Still running (last updated at that minute) when read two hours on: it cannot end before now, so retention
        // keeps it at least an hour past now.
        ToolTask running = AgentTasks.task(unattended(TaskStatus.RUNNING, ended, 3600), later);
        // Retention longer than the deadline: the ttl is the time to the deadline, as before.
        ToolTask kept = AgentTasks.task(unattended(TaskStatus.SUCCEEDED, ended, 604_800), ended);

        assertEquals(Optional.of(Duration.ofSeconds(3660)), finished.ttl());
        assertEquals(Optional.of(Duration.ofSeconds(3660)), finishedLater.ttl());
        assertEquals(Optional.of(Duration.ofHours(3)), running.ttl());
        assertEquals(Optional.of(Duration.ofDays(1)), kept.ttl());
    }
}
