package dev.serverfs.adapters.mcp.tools.agent;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.TaskTool;
import dev.serverfs.adapters.mcp.TaskToolDefinition;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolDefinition;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.in.CancelAgentTaskUseCase.CancelOutcome;
import dev.serverfs.application.port.in.InteractionAck;
import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase.EventPage;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase.ResultRead;
import dev.serverfs.application.port.in.SendAgentMessageUseCase.MessageAck;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.SubmitAgentTaskCommand;
import dev.serverfs.application.port.in.TaskHandle;
import dev.serverfs.application.port.in.TaskView;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The nine Agent tools (reference §3), in {@code tools/list} order, over the Agent use cases (embedded lifecycle or
 * Bridge client). Every audit event names the task ({@code task_id}; the invoker adds {@code schema_version}) and
 * never holds prompt, message or answer text.
 */
public final class AgentTools {

    static final ToolSpec LIST_AGENT_RUNTIMES = new ToolSpec(
            "list_agent_runtimes",
            "List the coding-agent runtimes that some workdir allows, with availability and capabilities"
                    + " (persistent session, live steer, interactive approval and question, in-flight recovery).",
            ToolAnnotations.readOnly(),
            ToolSurface.AGENT);

    static final ToolSpec SUBMIT_AGENT_TASK = new ToolSpec(
            "submit_agent_task",
            "Delegate one narrow objective to a coding agent working in a workdir."
                    + " Returns at once with task_id and status queued; poll get_agent_task and read_agent_task_events,"
                    + " answer approvals and questions, and read the result when the task ends. Pass an idempotency_key"
                    + " to retry safely after a lost response.",
            ToolAnnotations.mutating(true, false, true),
            ToolSurface.AGENT);

    static final ToolSpec GET_AGENT_TASK = new ToolSpec(
            "get_agent_task",
            "Read one Agent task: status, timestamps, manifest, result summary (final_response inline or a preview"
                    + " when spooled), error, and the pending approval or question if one waits for an answer.",
            ToolAnnotations.readOnly(),
            ToolSurface.AGENT);

    static final ToolSpec READ_AGENT_TASK_EVENTS = new ToolSpec(
            "read_agent_task_events",
            "Read an Agent task's normalised events after after_event_id (default 0), at most limit (1..500,"
                    + " default 100); continue with next_after_event_id.",
            ToolAnnotations.readOnly(),
            ToolSurface.AGENT);

    static final ToolSpec READ_AGENT_TASK_RESULT = new ToolSpec(
            "read_agent_task_result",
            "Read a spooled Agent task result in UTF-8-safe chunks: offset_bytes (default 0), max_bytes (1..65536,"
                    + " default 65536); continue with next_offset_bytes until eof.",
            ToolAnnotations.readOnly(),
            ToolSurface.AGENT);

    static final ToolSpec RESPOND_AGENT_APPROVAL = new ToolSpec(
            "respond_agent_approval",
            "Answer an Agent task's pending approval request: approve_once, approve_session, deny, or cancel_task"
                    + " (cancels the task). granted_permission_ids must be a subset of the requested permissions.",
            ToolAnnotations.mutating(true, true, true),
            ToolSurface.AGENT);

    static final ToolSpec ANSWER_AGENT_QUESTION = new ToolSpec(
            "answer_agent_question",
            "Answer an Agent task's pending question request: one entry per question with question_id,"
                    + " selected_option_ids and, where free text is allowed, text.",
            ToolAnnotations.mutating(false, true, true),
            ToolSurface.AGENT);

    static final ToolSpec SEND_AGENT_MESSAGE = new ToolSpec(
            "send_agent_message",
            "Steer a running Agent task with a short user message (at most 65536 bytes). A finished task takes no"
                    + " messages: submit a continuation with continue_from_task_id.",
            ToolAnnotations.mutating(true, false, true),
            ToolSurface.AGENT);

    static final ToolSpec CANCEL_AGENT_TASK = new ToolSpec(
            "cancel_agent_task",
            "Cancel an Agent task. The task is cancelled when this returns; a finished task keeps its status.",
            ToolAnnotations.mutating(true, true, true),
            ToolSurface.AGENT);

    private final AgentUseCases agent;
    private final List<String> runtimes;
    private final AgentTasks tasks;

    /**
     * @param runtimes the wire names submit's published schema offers as its {@code runtime} enum, in order (the
     *     runtimes of this build; the test-only one only when it is enabled)
     */
    public AgentTools(AgentUseCases agent, List<String> runtimes) {
        this.agent = Objects.requireNonNull(agent, "agent");
        this.runtimes = List.copyOf(runtimes);
        this.tasks = new AgentTasks(agent, this);
    }

    /** The group's tools, in {@code tools/list} order. */
    public List<McpTool> definitions() {
        ToolSpec submit = SUBMIT_AGENT_TASK.withEnum("runtime", runtimes);
        return List.of(
                ToolDefinition.of(LIST_AGENT_RUNTIMES, this::listRuntimes),
                new TaskToolDefinition<>(ToolDefinition.of(submit, Submit.class, this::submit), this::started, tasks),
                ToolDefinition.of(GET_AGENT_TASK, TaskReference.class, this::get),
                ToolDefinition.of(READ_AGENT_TASK_EVENTS, ReadEvents.class, this::readEvents),
                ToolDefinition.of(READ_AGENT_TASK_RESULT, ReadResult.class, this::readResult),
                ToolDefinition.of(RESPOND_AGENT_APPROVAL, RespondApproval.class, this::respondApproval),
                ToolDefinition.of(ANSWER_AGENT_QUESTION, AnswerQuestion.class, this::answerQuestion),
                ToolDefinition.of(SEND_AGENT_MESSAGE, SendMessage.class, this::sendMessage),
                ToolDefinition.of(CANCEL_AGENT_TASK, TaskReference.class, this::cancel));
    }

    /** The arguments of a tool that names only a task. */
    record TaskReference(String taskId) {}

    // list_agent_runtimes (reference §3.1): runtimes allowlisted on at least one workdir, probed.

    record Runtimes(List<Map<String, Object>> runtimes) {}

    private ToolResult listRuntimes() {
        List<Map<String, Object>> runtimes = agent.listRuntimes().listRuntimes().stream()
                .map(AgentViews::runtime)
                .toList();
        return ToolResult.of(new Runtimes(runtimes)).withCounter("returned", runtimes.size());
    }

    // submit_agent_task (reference §3.2): returns at once with the queued task; a retry with the same idempotency_key
    // returns the original task. Audit: workdir, path, runtime, profile, correlation_id, idempotency_key, task_id,
    // status; never the prompt.

    record Submit(
            String runtime,
            String workdir,
            String prompt,
            String path,
            String profile,
            String continueFromTaskId,
            String correlationId,
            String idempotencyKey) {}

    record Submitted(String taskId, String status, String correlationId, String idempotencyKey) {}

    private ToolResult submit(Submit p) {
        return started(p).audit();
    }

    /** Submits the task: its id and the submit's audited result (an MCP task's handle is this same task). */
    TaskTool.Started started(Submit p) {
        TaskHandle handle = agent.submit()
                .submit(SubmitAgentTaskCommand.parse(
                        p.runtime(),
                        p.workdir(),
                        p.prompt(),
                        Objects.requireNonNullElse(p.path(), ""),
                        Objects.requireNonNullElse(p.profile(), TaskProfile.WORKSPACE_WRITE.wire()),
                        Optional.ofNullable(p.continueFromTaskId()),
                        Optional.ofNullable(p.correlationId()),
                        Optional.ofNullable(p.idempotencyKey())))
                .handle();
        ToolResult result = audited(
                        new Submitted(
                                handle.taskId().value(),
                                handle.status().wire(),
                                CorrelationId.wire(handle.correlationId()).orElse(null),
                                IdempotencyKey.wire(handle.idempotencyKey()).orElse(null)),
                        handle.taskId())
                .withPath(handle.relativeCwd())
                .withCounter("runtime", p.runtime())
                .withCounter("profile", handle.profile().wire())
                .withCounter("status", handle.status().wire());
        if (handle.correlationId().isPresent()) {
            result = result.withCounter(
                    "correlation_id", handle.correlationId().get().value());
        }
        if (handle.idempotencyKey().isPresent()) {
            result = result.withCounter(
                    "idempotency_key", handle.idempotencyKey().get().value());
        }
        return new TaskTool.Started(handle.taskId().value(), result);
    }

    // get_agent_task (reference §3.3): the task record without native ids or fingerprint.

    private ToolResult get(TaskReference p) {
        TaskId id = TaskId.parse(p.taskId());
        TaskView view = agent.get().get(id);
        return audited(AgentViews.task(view), id)
                .withWorkdir(view.workdirAlias().value())
                .withCounter("status", view.status().wire());
    }

    // read_agent_task_events (reference §3.4): normalised, redacted events after a cursor.

    record ReadEvents(String taskId, Long afterEventId, Long limit) {}

    record Events(String correlationId, List<Map<String, Object>> events, long nextAfterEventId) {}

    private ToolResult readEvents(ReadEvents p) {
        TaskId id = TaskId.parse(p.taskId());
        long after = Objects.requireNonNullElse(p.afterEventId(), 0L);
        long limit = Objects.requireNonNullElse(p.limit(), (long) ReadAgentTaskEventsUseCase.DEFAULT_LIMIT);
        if (after < 0 || limit < 1 || limit > ReadAgentTaskEventsUseCase.MAX_LIMIT) {
            throw new ServerFsException(ErrorCode.INVALID_LIMIT, "after_event_id or limit is out of range");
        }
        EventPage page = agent.events().readEvents(id, after, (int) limit);
        List<Map<String, Object>> events = page.events().stream()
                .map(e -> AgentViews.event(e, CorrelationId.wire(page.correlationId())))
                .toList();
        return audited(
                        new Events(
                                CorrelationId.wire(page.correlationId()).orElse(null), events, page.nextAfterEventId()),
                        id)
                .withCounter("returned", events.size());
    }

    // read_agent_task_result (reference §3.5): one UTF-8-safe chunk of a spooled result.

    record ReadResult(String taskId, Long offsetBytes, Long maxBytes) {}

    record ResultText(String text, long offsetBytes, long nextOffsetBytes, boolean eof, String correlationId) {}

    private ToolResult readResult(ReadResult p) {
        TaskId id = TaskId.parse(p.taskId());
        long offset = Objects.requireNonNullElse(p.offsetBytes(), 0L);
        long max = Objects.requireNonNullElse(p.maxBytes(), (long) ReadAgentTaskResultUseCase.DEFAULT_MAX_BYTES);
        if (offset < 0) {
            throw new ServerFsException(ErrorCode.INVALID_RESULT_OFFSET, "offset_bytes must not be negative");
        }
        if (max < 1 || max > ReadAgentTaskResultUseCase.DEFAULT_MAX_BYTES) {
            throw new ServerFsException(ErrorCode.INVALID_RESULT_LIMIT, "max_bytes must be 1..65536");
        }
        ResultRead read = agent.result().readResult(id, offset, (int) max);
        return audited(
                        new ResultText(
                                read.chunk().text(),
                                read.chunk().offsetBytes(),
                                read.chunk().nextOffsetBytes(),
                                read.chunk().eof(),
                                CorrelationId.wire(read.correlationId()).orElse(null)),
                        id)
                .withCounter(
                        "bytes_returned",
                        read.chunk().nextOffsetBytes() - read.chunk().offsetBytes());
    }

    // respond_agent_approval (reference §3.6); cancel_task cancels the task before returning.

    record RespondApproval(String taskId, String requestId, String decision, List<String> grantedPermissionIds) {}

    ToolResult respondApproval(RespondApproval p) {
        TaskId taskId = TaskId.parse(p.taskId());
        RequestId requestId = RequestId.parse(p.requestId());
        ApprovalDecision decision = ApprovalDecision.parse(p.decision());
        Optional<List<String>> granted = Optional.ofNullable(p.grantedPermissionIds());
        return resolved(agent.approval().respond(taskId, requestId, new ApprovalResolution(decision, granted)))
                .withCounter("decision", decision.wire());
    }

    // answer_agent_question (reference §3.7). The schema types each answer's fields (a wrong type is
    // INVALID_ARGUMENTS, as for every tool); that an answer has only question_id, selected_option_ids and text is
    // checked here and its content against the pending question, both failing INVALID_QUESTION_ANSWER as the
    // reference does.

    private static final Set<String> ANSWER_KEYS = Set.of("question_id", "selected_option_ids", "text");

    /** Each answer kept as arguments of its own, so its keys are checked before it is bound. */
    record AnswerQuestion(String taskId, String requestId, List<ToolArguments> answers) {}

    record Answer(String questionId, List<String> selectedOptionIds, String text) {}

    private ToolResult answerQuestion(AnswerQuestion p) {
        TaskId taskId = TaskId.parse(p.taskId());
        RequestId requestId = RequestId.parse(p.requestId());
        List<QuestionAnswer> answers =
                p.answers().stream().map(AgentTools::answer).toList();
        return resolved(agent.answer().answer(taskId, requestId, answers)).withCounter("returned", answers.size());
    }

    private static QuestionAnswer answer(ToolArguments arguments) {
        if (!ANSWER_KEYS.containsAll(arguments.names())) {
            throw new ServerFsException(
                    ErrorCode.INVALID_QUESTION_ANSWER, "an answer has only question_id, selected_option_ids and text");
        }
        Answer a = arguments.bind(Answer.class);
        if (a.questionId() == null) {
            throw new ServerFsException(ErrorCode.INVALID_ARGUMENTS, "missing argument question_id");
        }
        return new QuestionAnswer(
                a.questionId(),
                Objects.requireNonNullElse(a.selectedOptionIds(), List.of()),
                Optional.ofNullable(a.text()));
    }

    // send_agent_message (reference §3.8): steers a running turn; audit records message_bytes only.

    record SendMessage(String taskId, String message) {}

    record Accepted(String taskId, boolean accepted, String correlationId) {}

    private ToolResult sendMessage(SendMessage p) {
        TaskId taskId = TaskId.parse(p.taskId());
        MessageAck ack = agent.message().send(taskId, p.message());
        return audited(
                        new Accepted(
                                ack.taskId().value(),
                                true,
                                CorrelationId.wire(ack.correlationId()).orElse(null)),
                        taskId)
                .withCounter("message_bytes", p.message().getBytes(StandardCharsets.UTF_8).length);
    }

    // cancel_agent_task (reference §3.9): persisted cancelled before returning; repeat-safe.

    record Cancelled(String taskId, String status, String correlationId) {}

    ToolResult cancel(TaskReference p) {
        TaskId taskId = TaskId.parse(p.taskId());
        CancelOutcome outcome = agent.cancel().cancel(taskId);
        return audited(
                        new Cancelled(
                                outcome.taskId().value(),
                                outcome.status().wire(),
                                CorrelationId.wire(outcome.correlationId()).orElse(null)),
                        taskId)
                .withCounter("status", outcome.status().wire());
    }

    // The acknowledgement of an approval or an answer (reference §3.6, §3.7).

    record Resolved(String taskId, String requestId, boolean resolved, String correlationId) {}

    static ToolResult resolved(InteractionAck ack) {
        return audited(
                        new Resolved(
                                ack.taskId().value(),
                                ack.requestId().value(),
                                true,
                                CorrelationId.wire(ack.correlationId()).orElse(null)),
                        ack.taskId())
                .withCounter("request_id", ack.requestId().value());
    }

    /** A result whose audit event names the task (the invoker adds {@code schema_version}). */
    private static ToolResult audited(Object payload, TaskId taskId) {
        return ToolResult.of(payload).withCounter("task_id", taskId.value());
    }
}
