package dev.serverfs.adapters.sqlite;

import static dev.serverfs.adapters.sqlite.jooq.Tables.EVENTS;
import static dev.serverfs.adapters.sqlite.jooq.Tables.PENDING_REQUESTS;
import static dev.serverfs.adapters.sqlite.jooq.Tables.TASKS;

import dev.serverfs.adapters.sqlite.jooq.tables.records.TasksRecord;
import dev.serverfs.application.port.out.InsertOutcome;
import dev.serverfs.application.port.out.NewEvent;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.RequestStatus;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskEvent;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskStatus;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * {@link TaskStore} on SQLite (reference §5). Every method is one transaction: writes on the single writer
 * connection ({@code BEGIN IMMEDIATE}, so check-then-act sequences such as the idempotency look-up before an
 * insert are atomic across threads and processes), reads on the read-only connection. The partial unique index
 * on {@code idempotency_key} stays the last guard (v0.7.3 §3.3 item 7).
 */
final class SqliteTaskStore implements TaskStore, AutoCloseable {

    private static final List<TaskStatus> TERMINAL = statuses(true);
    private static final List<TaskStatus> NON_TERMINAL = statuses(false);

    private final SqliteTaskDatabase database;

    SqliteTaskStore(SqliteTaskDatabase database) {
        this.database = database;
    }

    @Override
    public InsertOutcome insert(Task task, int maxActiveTasks) {
        if (task.status() != TaskStatus.QUEUED) {
            throw new IllegalArgumentException("only queued tasks are inserted");
        }
        return database.write("task_insert", dsl -> {
            if (task.idempotencyKey().isPresent()) {
                Optional<TasksRecord> existing = dsl.selectFrom(TASKS)
                        .where(TASKS.IDEMPOTENCY_KEY.eq(
                                task.idempotencyKey().get().value()))
                        .fetchOptional();
                if (existing.isPresent()) {
                    return new InsertOutcome.Existing(TaskRows.task(existing.get()));
                }
            }
            if (dsl.fetchExists(TASKS, TASKS.TASK_ID.eq(task.id()))) {
                throw new ServerFsException(ErrorCode.AGENT_TASK_EXISTS, "task already exists");
            }
            if (dsl.fetchCount(TASKS, TASKS.STATUS.in(NON_TERMINAL)) >= maxActiveTasks) {
                throw new ServerFsException(ErrorCode.AGENT_TASK_LIMIT_REACHED, "too many active Agent tasks");
            }
            try {
                dsl.insertInto(TASKS)
                        .set(TASKS.TASK_ID, task.id())
                        .set(TaskRows.columns(task))
                        .set(TASKS.EVENT_COUNT, 0)
                        .execute();
            } catch (DataAccessException e) {
                throw insertConflict(e);
            }
            return new InsertOutcome.Created(task.withEventCount(0));
        });
    }

    @Override
    public Optional<Task> find(TaskId id) {
        return database.read(
                "task_find",
                dsl -> dsl.selectFrom(TASKS).where(TASKS.TASK_ID.eq(id)).fetchOptional(TaskRows::task));
    }

    @Override
    public Optional<Task> findByIdempotencyKey(IdempotencyKey idempotencyKey) {
        return database.read(
                "task_find_by_key",
                dsl -> dsl.selectFrom(TASKS)
                        .where(TASKS.IDEMPOTENCY_KEY.eq(idempotencyKey.value()))
                        .fetchOptional(TaskRows::task));
    }

    @Override
    public Task update(TaskId id, UnaryOperator<Task> change) {
        return database.write("task_update", dsl -> update(dsl, id, change, t -> List.of(), 0));
    }

    @Override
    public Task update(
            TaskId id, UnaryOperator<Task> change, Function<Task, List<NewEvent>> announce, int maxEventsPerTask) {
        return database.write("task_update", dsl -> update(dsl, id, change, announce, maxEventsPerTask));
    }

    private static Task update(
            DSLContext dsl,
            TaskId id,
            UnaryOperator<Task> change,
            Function<Task, List<NewEvent>> announce,
            int maxEventsPerTask) {
        Task current = requireTask(dsl, id);
        Task next = change.apply(current);
        if (next == current) {
            return current;
        }
        if (!next.id().equals(id)) {
            throw new IllegalArgumentException("update must keep the task id");
        }
        Task stored = next.withEventCount(current.eventCount());
        writeTask(dsl, stored);
        if (stored.isTerminal()) {
            // Reference §3.11: entering a terminal state marks any pending request stale.
            dsl.update(PENDING_REQUESTS)
                    .set(PENDING_REQUESTS.STATUS, RequestStatus.STALE)
                    .where(PENDING_REQUESTS.TASK_ID.eq(id))
                    .and(PENDING_REQUESTS.STATUS.eq(RequestStatus.PENDING))
                    .execute();
        }
        for (NewEvent event : announce.apply(stored)) {
            if (append(dsl, id, event, maxEventsPerTask).isPresent()) {
                stored = stored.withEventCount(stored.eventCount() + 1);
            }
        }
        return stored;
    }

    @Override
    public TaskEvent appendEvent(
            TaskId id, String eventType, String payloadJson, Instant createdAt, int maxEventsPerTask) {
        NewEvent event = new NewEvent(eventType, payloadJson, createdAt);
        return database.write(
                "event_append",
                dsl -> append(dsl, id, event, maxEventsPerTask).orElseThrow(() -> {
                    requireTask(dsl, id);
                    return new ServerFsException(ErrorCode.AGENT_EVENT_LIMIT_REACHED, "task event limit reached");
                }));
    }

    /** Appends the event unless the task already has {@code maxEventsPerTask}; empty then (or for no such task). */
    private static Optional<TaskEvent> append(DSLContext dsl, TaskId id, NewEvent event, int maxEventsPerTask) {
        // Reference §5: the cap is a conditional update of event_count, so it holds under any concurrency.
        int counted = dsl.update(TASKS)
                .set(TASKS.EVENT_COUNT, TASKS.EVENT_COUNT.plus(1))
                .where(TASKS.TASK_ID.eq(id))
                .and(TASKS.EVENT_COUNT.lt(maxEventsPerTask))
                .execute();
        if (counted == 0) {
            return Optional.empty();
        }
        long eventId = dsl.insertInto(EVENTS)
                .set(EVENTS.TASK_ID, id)
                .set(EVENTS.EVENT_TYPE, event.eventType())
                .set(EVENTS.PAYLOAD_JSON, event.payloadJson())
                .set(EVENTS.CREATED_AT, event.createdAt())
                .returningResult(EVENTS.EVENT_ID)
                .fetchSingle()
                .value1();
        return Optional.of(new TaskEvent(eventId, id, event.eventType(), event.payloadJson(), event.createdAt()));
    }

    @Override
    public List<TaskEvent> events(TaskId id, long afterEventId, int limit) {
        return database.read(
                "event_read",
                dsl -> dsl.selectFrom(EVENTS)
                        .where(EVENTS.TASK_ID.eq(id))
                        .and(EVENTS.EVENT_ID.gt(afterEventId))
                        .orderBy(EVENTS.EVENT_ID)
                        .limit(limit)
                        .fetch(TaskRows::event));
    }

    @Override
    public Task openRequest(PendingRequest request) {
        return database.write("request_open", dsl -> {
            Task task = requireTask(dsl, request.taskId());
            if (dsl.fetchExists(PENDING_REQUESTS, PENDING_REQUESTS.REQUEST_ID.eq(request.id()))) {
                throw new ServerFsException(ErrorCode.REQUEST_EXISTS, "request already exists");
            }
            boolean pending = task.pendingRequestId().isPresent()
                    || dsl.fetchExists(
                            PENDING_REQUESTS,
                            PENDING_REQUESTS
                                    .TASK_ID
                                    .eq(task.id())
                                    .and(PENDING_REQUESTS.STATUS.eq(RequestStatus.PENDING)));
            if (pending) {
                throw new ServerFsException(ErrorCode.REQUEST_PENDING, "the task already has a pending request");
            }
            Task waiting = task.awaiting(request.kind(), request.id(), request.createdAt());
            try {
                dsl.insertInto(PENDING_REQUESTS).set(TaskRows.row(request)).execute();
            } catch (DataAccessException e) {
                if (SqliteFailures.isUniqueViolation(e, "pending_requests.request_id")) {
                    throw new ServerFsException(ErrorCode.REQUEST_EXISTS, "request already exists");
                }
                throw SqliteFailures.storage("request_open", e);
            }
            writeTask(dsl, waiting);
            return waiting;
        });
    }

    @Override
    public Optional<PendingRequest> findRequest(RequestId id) {
        return database.read(
                "request_find",
                dsl -> dsl.selectFrom(PENDING_REQUESTS)
                        .where(PENDING_REQUESTS.REQUEST_ID.eq(id))
                        .fetchOptional(TaskRows::request));
    }

    @Override
    public Task resolveRequest(TaskId taskId, RequestId requestId, String resolutionJson, Instant now) {
        return database.write("request_resolve", dsl -> {
            Task task = requirePending(dsl, taskId, requestId);
            Task running = task.resumed(now);
            dsl.update(PENDING_REQUESTS)
                    .set(PENDING_REQUESTS.STATUS, RequestStatus.RESOLVED)
                    .set(PENDING_REQUESTS.RESOLVED_AT, now)
                    .set(PENDING_REQUESTS.RESOLUTION_JSON, resolutionJson)
                    .where(PENDING_REQUESTS.REQUEST_ID.eq(requestId))
                    .execute();
            writeTask(dsl, running);
            return running;
        });
    }

    @Override
    public Task abandonRequest(TaskId taskId, RequestId requestId, Instant now) {
        return database.write("request_abandon", dsl -> {
            Task task = requirePending(dsl, taskId, requestId);
            Task running = task.resumed(now);
            dsl.update(PENDING_REQUESTS)
                    .set(PENDING_REQUESTS.STATUS, RequestStatus.STALE)
                    .where(PENDING_REQUESTS.REQUEST_ID.eq(requestId))
                    .execute();
            writeTask(dsl, running);
            return running;
        });
    }

    @Override
    public List<Task> list(boolean includeTerminal) {
        return database.read(
                "task_list",
                dsl -> dsl.selectFrom(TASKS)
                        .where(includeTerminal ? TASKS.STATUS.isNotNull() : TASKS.STATUS.in(NON_TERMINAL))
                        .orderBy(TASKS.CREATED_AT, TASKS.TASK_ID)
                        .fetch(TaskRows::task));
    }

    @Override
    public List<TaskId> terminalCompletedBefore(Instant cutoff) {
        // Compared as instants, not text, so rows written with another ISO-8601 spelling are judged correctly.
        return database.read(
                "task_gc_candidates",
                dsl -> dsl
                        .select(TASKS.TASK_ID, TASKS.COMPLETED_AT)
                        .from(TASKS)
                        .where(TASKS.STATUS.in(TERMINAL))
                        .and(TASKS.COMPLETED_AT.isNotNull())
                        .orderBy(TASKS.COMPLETED_AT, TASKS.TASK_ID)
                        .fetch()
                        .stream()
                        .filter(row -> row.value2().isBefore(cutoff))
                        .map(row -> row.value1())
                        .toList());
    }

    @Override
    public boolean deleteTerminal(TaskId id) {
        // Events and pending requests go with the row through ON DELETE CASCADE (foreign_keys=ON).
        return database.write(
                "task_delete",
                dsl -> dsl.deleteFrom(TASKS)
                                .where(TASKS.TASK_ID.eq(id))
                                .and(TASKS.STATUS.in(TERMINAL))
                                .execute()
                        > 0);
    }

    @Override
    public void close() {
        database.close();
    }

    private static Task requireTask(DSLContext dsl, TaskId id) {
        return dsl.selectFrom(TASKS)
                .where(TASKS.TASK_ID.eq(id))
                .fetchOptional(TaskRows::task)
                .orElseThrow(() -> new ServerFsException(ErrorCode.AGENT_TASK_NOT_FOUND, "unknown task"));
    }

    /** The compare-and-set preconditions of a resolution (reference §3.6, §5); returns the waiting task. */
    private static Task requirePending(DSLContext dsl, TaskId taskId, RequestId requestId) {
        PendingRequest request = dsl.selectFrom(PENDING_REQUESTS)
                .where(PENDING_REQUESTS.REQUEST_ID.eq(requestId))
                .and(PENDING_REQUESTS.TASK_ID.eq(taskId))
                .fetchOptional(TaskRows::request)
                .orElseThrow(() -> new ServerFsException(ErrorCode.REQUEST_NOT_FOUND, "unknown request"));
        switch (request.status()) {
            case PENDING -> {}
            case RESOLVED ->
                throw new ServerFsException(ErrorCode.REQUEST_ALREADY_RESOLVED, "request already resolved");
            case STALE -> throw new ServerFsException(ErrorCode.REQUEST_STALE, "request is stale");
        }
        Task task = requireTask(dsl, taskId);
        if (!task.pendingRequestId().equals(Optional.of(requestId))) {
            throw new ServerFsException(ErrorCode.REQUEST_STALE, "request is stale");
        }
        return task;
    }

    private static void writeTask(DSLContext dsl, Task task) {
        dsl.update(TASKS)
                .set(TaskRows.columns(task))
                .where(TASKS.TASK_ID.eq(task.id()))
                .execute();
    }

    private static ServerFsException insertConflict(DataAccessException e) {
        if (SqliteFailures.isUniqueViolation(e, "tasks.idempotency_key")) {
            // Unreachable while every writer runs the look-up above in a BEGIN IMMEDIATE transaction; kept as
            // the last integrity guard (v0.7.3 §3.3 item 7).
            return new ServerFsException(
                    ErrorCode.AGENT_IDEMPOTENCY_CONFLICT, "idempotency key is held by another task");
        }
        if (SqliteFailures.isUniqueViolation(e, "tasks.task_id")) {
            return new ServerFsException(ErrorCode.AGENT_TASK_EXISTS, "task already exists");
        }
        return SqliteFailures.storage("task_insert", e);
    }

    private static List<TaskStatus> statuses(boolean terminal) {
        return Arrays.stream(TaskStatus.values())
                .filter(s -> s.isTerminal() == terminal)
                .toList();
    }
}
