package dev.serverfs.application.port.out;

import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskEvent;
import dev.serverfs.domain.task.TaskId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Durable tasks, their events and pending requests (reference §5). Every method is atomic (one transaction) and
 * thread-safe; failures surface as {@code ServerFsException} with the codes named below, storage failures as
 * {@code AGENT_RESULT_STORAGE_ERROR}. The contract suite {@code TaskStoreContract} (application test-jar) is the
 * executable specification every implementation must pass.
 */
public interface TaskStore {

    /**
     * Inserts a new {@code queued} task. If the task carries an idempotency key already held by a retained task,
     * nothing is written and {@link InsertOutcome.Existing} returns that task (the caller compares
     * fingerprints). Otherwise counts non-terminal tasks inside the same transaction: {@code >= maxActiveTasks}
     * → {@code AGENT_TASK_LIMIT_REACHED}; a duplicate task id → {@code AGENT_TASK_EXISTS}.
     */
    InsertOutcome insert(Task task, int maxActiveTasks);

    Optional<Task> find(TaskId id);

    Optional<Task> findByIdempotencyKey(IdempotencyKey idempotencyKey);

    /**
     * Atomic read-modify-write of one task: reads it, applies the pure {@code change} (which may throw a
     * {@code ServerFsException}, aborting the update) and writes the result unless it is the same instance.
     * When the new task is terminal, every pending request of the task becomes {@code stale} in the same
     * transaction. {@code event_count} is never written here. Unknown task → {@code AGENT_TASK_NOT_FOUND}.
     *
     * @return the task as stored afterwards (with its current event count)
     */
    Task update(TaskId id, UnaryOperator<Task> change);

    /**
     * {@link #update(TaskId, UnaryOperator)} and, only when {@code change} produced a new task, the events that the pure
     * {@code announce} makes of the new task appended in order in the same transaction, so that no reader ever sees
     * the new state without the events that announce it. Events past {@code maxEventsPerTask} are left out: the cap
     * never undoes an update.
     *
     * @return the task as stored afterwards (with its current event count)
     */
    Task update(TaskId id, UnaryOperator<Task> change, Function<Task, List<NewEvent>> announce, int maxEventsPerTask);

    /**
     * Appends one event with the next global, monotonic event id and increments {@code event_count}, only while
     * {@code event_count < maxEventsPerTask} ({@code AGENT_EVENT_LIMIT_REACHED}). Unknown task → {@code
     * AGENT_TASK_NOT_FOUND}.
     */
    TaskEvent appendEvent(TaskId id, String eventType, String payloadJson, Instant createdAt, int maxEventsPerTask);

    /** Events of the task with {@code event_id > afterEventId}, ascending, at most {@code limit}; unknown → empty. */
    List<TaskEvent> events(TaskId id, long afterEventId, int limit);

    /**
     * Inserts a pending request and moves its task {@code running -> waiting_for_approval|question} (with {@code
     * request.createdAt()} as the time) in one transaction. Errors: unknown task {@code AGENT_TASK_NOT_FOUND},
     * duplicate request id {@code REQUEST_EXISTS}, a request already pending for the task {@code
     * REQUEST_PENDING}, task not running {@code INVALID_TASK_TRANSITION}.
     *
     * @return the waiting task
     */
    Task openRequest(PendingRequest request);

    Optional<PendingRequest> findRequest(RequestId id);

    /**
     * Compare-and-set resolution: the request must belong to {@code taskId} (else {@code REQUEST_NOT_FOUND}),
     * be {@code pending} ({@code REQUEST_ALREADY_RESOLVED} / {@code REQUEST_STALE}) and be the task's
     * {@code pending_request_id} ({@code REQUEST_STALE}); then request → {@code resolved} with the resolution
     * and the task {@code waiting_* -> running}, atomically.
     *
     * @return the running task
     */
    Task resolveRequest(TaskId taskId, RequestId requestId, String resolutionJson, Instant now);

    /**
     * The provider withdrew its request: same checks as {@link #resolveRequest}, then request → {@code stale}
     * and the task {@code waiting_* -> running}, atomically.
     */
    Task abandonRequest(TaskId taskId, RequestId requestId, Instant now);

    /** For operators and reconciliation: all tasks, or only non-terminal ones, ordered by creation then id. */
    List<Task> list(boolean includeTerminal);

    /** Ids of terminal tasks whose {@code completed_at} is strictly before {@code cutoff} (GC candidates). */
    List<TaskId> terminalCompletedBefore(Instant cutoff);

    /**
     * Deletes a terminal task with its events and pending requests as one unit (its idempotency key becomes
     * reusable). Returns false, deleting nothing, when the task is absent or not terminal.
     */
    boolean deleteTerminal(TaskId id);
}
