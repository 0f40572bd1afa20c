package dev.serverfs.application.service.agent;

import static dev.serverfs.application.service.agent.TaskStopping.cancelTimer;

import dev.serverfs.application.port.in.AnswerAgentQuestionUseCase;
import dev.serverfs.application.port.in.InteractionAck;
import dev.serverfs.application.port.in.RespondAgentApprovalUseCase;
import dev.serverfs.application.port.in.SendAgentMessageUseCase;
import dev.serverfs.application.port.out.IdGenerator;
import dev.serverfs.application.port.out.Timers;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.json.CanonicalJson;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.EventType;
import dev.serverfs.domain.task.InteractionKind;
import dev.serverfs.domain.task.InteractionRules;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskStatus;
import dev.serverfs.domain.task.Timestamps;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * Approvals, questions and steering messages (reference §3.6–§3.8, v0.7.3 §5): the provider's side opens one
 * pending request with {@code expires_at = min(deadline, now + interaction timeout)} and one timer, and waits; the
 * caller's side resolves it once (an expired request interrupts the task first and answers {@code REQUEST_STALE}).
 * A {@code cancel_task} decision takes the cancel path. Message text goes to the runtime, never to the store.
 */
public final class TaskInteractions
        implements RespondAgentApprovalUseCase, AnswerAgentQuestionUseCase, SendAgentMessageUseCase {
    private final TaskRecords records;
    private final LiveRuns live;
    private final TaskStopping stopping;
    private final IdGenerator ids;
    private final Timers timers;

    public TaskInteractions(TaskRecords records, LiveRuns live, TaskStopping stopping, IdGenerator ids, Timers timers) {
        this.records = records;
        this.live = live;
        this.stopping = stopping;
        this.ids = ids;
        this.timers = timers;
    }

    @Override
    public InteractionAck respond(TaskId taskId, RequestId requestId, ApprovalResolution resolution) {
        Task task = records.require(taskId);
        PendingRequest request = requireRequest(taskId, requestId);
        if (request.kind() != InteractionKind.APPROVAL) {
            throw new ServerFsException(ErrorCode.INVALID_APPROVAL_DECISION, "the request is not an approval");
        }
        if (!(livePending(taskId, requestId, request) instanceof PendingInteraction.Approval pending)) {
            throw TaskRecords.stale();
        }
        InteractionRules.checkApproval(pending.request, resolution);
        resolve(taskId, requestId, pending, resolution.toJson());
        records.event(
                taskId,
                EventType.APPROVAL_RESOLVED,
                JsonValue.object().put("decision", resolution.decision().wire()).build());
        if (resolution.decision() == ApprovalDecision.CANCEL_TASK) {
            // v0.7.3 §14.4: the same terminal-first path as cancel_agent_task. The task is terminal before the
            // turn could go on (the waiter fails with AGENT_TASK_TERMINAL): a provider that finished the turn on
            // the decision could otherwise make the task succeeded before this RPC returns.
            stopping.cancel(taskId);
        }
        pending.waiter.complete(resolution); // no-op after cancel
        return new InteractionAck(taskId, requestId, task.correlationId());
    }

    @Override
    public InteractionAck answer(TaskId taskId, RequestId requestId, List<QuestionAnswer> answers) {
        Task task = records.require(taskId);
        PendingRequest request = requireRequest(taskId, requestId);
        if (request.kind() != InteractionKind.QUESTION) {
            throw new ServerFsException(ErrorCode.INVALID_QUESTION_ANSWER, "the request is not a question");
        }
        if (!(livePending(taskId, requestId, request) instanceof PendingInteraction.Question pending)) {
            throw TaskRecords.stale();
        }
        InteractionRules.checkAnswers(pending.request, answers);
        resolve(taskId, requestId, pending, answersJson(answers));
        records.event(
                taskId,
                EventType.QUESTION_ANSWERED,
                JsonValue.object().put("question_count", answers.size()).build());
        pending.waiter.complete(List.copyOf(answers));
        return new InteractionAck(taskId, requestId, task.correlationId());
    }

    @Override
    public MessageAck send(TaskId id, String message) {
        int bytes = message.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > records.limits().maxMessageBytes()) {
            throw new ServerFsException(ErrorCode.AGENT_MESSAGE_TOO_LARGE, "message is too large");
        }
        Task task = records.require(id);
        if (task.isTerminal()) {
            throw new ServerFsException(
                    ErrorCode.AGENT_TASK_TERMINAL, "the task has ended; submit a continuation instead");
        }
        Optional<LiveRun> run = live.find(id);
        if (task.status() == TaskStatus.QUEUED || run.isEmpty()) {
            throw new ServerFsException(ErrorCode.AGENT_TASK_NOT_ACTIVE, "the task is not active");
        }
        run.get().runtime.steer(id, message);
        records.event(
                id,
                EventType.USER_MESSAGE,
                JsonValue.object().put("bytes", bytes).build());
        return new MessageAck(id, task.correlationId());
    }

    private void resolve(TaskId taskId, RequestId requestId, PendingInteraction<?> pending, String json) {
        InteractionRules.requireSize(json, records.limits());
        records.store().resolveRequest(taskId, requestId, json, records.now());
        cancelTimer(pending.timer);
    }

    private PendingRequest requireRequest(TaskId taskId, RequestId requestId) {
        PendingRequest request = records.store()
                .findRequest(requestId)
                .filter(r -> r.taskId().equals(taskId))
                .orElseThrow(() -> new ServerFsException(ErrorCode.REQUEST_NOT_FOUND, "unknown request"));
        switch (request.status()) {
            case PENDING -> {}
            case RESOLVED ->
                throw new ServerFsException(ErrorCode.REQUEST_ALREADY_RESOLVED, "the request was already resolved");
            case STALE -> throw TaskRecords.stale();
        }
        return request;
    }

    /** The live waiter for the request; an expired request interrupts the task first (reference §3.6). */
    private PendingInteraction<?> livePending(TaskId taskId, RequestId requestId, PendingRequest request) {
        Optional<LiveRun> run = live.find(taskId);
        if (request.expiredAt(records.now())) {
            if (run.isPresent()) {
                stopping.onInteractionExpired(run.get(), requestId, request.kind());
            } else {
                stopping.expire(taskId, requestId);
            }
            throw TaskRecords.stale();
        }
        PendingInteraction<?> pending = run.map(r -> r.pending).orElse(null);
        if (pending == null || !pending.id.equals(requestId)) {
            throw TaskRecords.stale();
        }
        return pending;
    }

    private static String answersJson(List<QuestionAnswer> answers) {
        return CanonicalJson.write(JsonValue.object()
                .put(
                        "answers",
                        JsonValue.arrayOf(answers.stream()
                                .map(a -> JsonValue.object()
                                        .put("question_id", a.questionId())
                                        .put("selected_option_ids", JsonValue.stringsOf(a.selectedOptionIds()))
                                        .put("text", a.text())
                                        .build())
                                .toList()))
                .build());
    }

    // --------------------------------------------------------------------------------- the provider's side

    /**
     * Opens a pending request for the running turn ({@code open} makes the typed interaction for its new id) and
     * blocks until it is resolved, expires or the task ends (the waiter then fails with the stop's code, or {@code
     * AGENT_TASK_TERMINAL}).
     */
    <A> A await(LiveRun run, JsonValue.JsonObject payload, Function<RequestId, PendingInteraction<A>> open) {
        String json = CanonicalJson.write(payload);
        InteractionRules.requireSize(json, records.limits());
        Task task = records.require(run.id);
        Instant now = records.now();
        Instant expires = InteractionRules.expiresAt(task.deadlineAt(), now, records.limits());
        if (!expires.isAfter(now)) {
            throw new ServerFsException(ErrorCode.AGENT_INTERACTION_EXPIRED, "the interaction already expired");
        }
        RequestId requestId = ids.newRequestId();
        PendingInteraction<A> pending = open.apply(requestId);
        InteractionKind kind = pending.kind();
        run.pending = pending;
        try {
            // The timer exists before the request becomes visible: every pending request has its timer.
            pending.timer = timers.schedule(expires, () -> stopping.onInteractionExpired(run, requestId, kind));
            records.store().openRequest(PendingRequest.open(requestId, run.id, kind, json, now, expires));
            records.event(
                    run.id,
                    kind == InteractionKind.APPROVAL ? EventType.APPROVAL_REQUESTED : EventType.QUESTION_REQUESTED,
                    JsonValue.object()
                            .put("request_id", requestId.value())
                            .put("expires_at", Timestamps.format(expires))
                            .build());
            return pending.waiter.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TaskRecords.terminal();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ServerFsException s) {
                throw s;
            }
            throw TaskRecords.terminal();
        } finally {
            cancelTimer(pending.timer);
            if (run.pending == pending) {
                run.pending = null;
            }
        }
    }

    /** The provider gave up its pending request (e.g. it answered it itself): the request goes stale. */
    void abandon(LiveRun run) {
        PendingInteraction<?> pending = run.pending;
        if (pending == null) {
            return;
        }
        records.store().abandonRequest(run.id, pending.id, records.now());
        cancelTimer(pending.timer);
        records.event(
                run.id,
                EventType.INTERACTION_STALE,
                JsonValue.object().put("request_id", pending.id.value()).build());
        pending.fail(TaskRecords.stale());
    }
}
