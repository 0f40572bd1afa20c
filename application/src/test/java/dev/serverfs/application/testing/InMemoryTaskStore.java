package dev.serverfs.application.testing;

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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** A {@link TaskStore} in memory, one monitor for atomicity; passes {@code TaskStoreContract}. */
public final class InMemoryTaskStore implements TaskStore {
    private final Map<TaskId, Task> tasks = new LinkedHashMap<>();
    private final Map<RequestId, PendingRequest> requests = new LinkedHashMap<>();
    private final List<TaskEvent> events = new ArrayList<>();
    private long nextEventId = 1;

    @Override
    public synchronized InsertOutcome insert(Task task, int maxActiveTasks) {
        if (task.status() != TaskStatus.QUEUED) {
            throw new IllegalArgumentException("only queued tasks are inserted");
        }
        if (task.idempotencyKey().isPresent()) {
            Optional<Task> existing = findByIdempotencyKey(task.idempotencyKey().get());
            if (existing.isPresent()) {
                return new InsertOutcome.Existing(existing.get());
            }
        }
        if (tasks.containsKey(task.id())) {
            throw new ServerFsException(ErrorCode.AGENT_TASK_EXISTS, "task already exists");
        }
        long active = tasks.values().stream().filter(t -> !t.isTerminal()).count();
        if (active >= maxActiveTasks) {
            throw new ServerFsException(ErrorCode.AGENT_TASK_LIMIT_REACHED, "too many active Agent tasks");
        }
        Task stored = task.withEventCount(0);
        tasks.put(task.id(), stored);
        return new InsertOutcome.Created(stored);
    }

    @Override
    public synchronized Optional<Task> find(TaskId id) {
        return Optional.ofNullable(tasks.get(id));
    }

    @Override
    public synchronized Optional<Task> findByIdempotencyKey(IdempotencyKey idempotencyKey) {
        return tasks.values().stream()
                .filter(t -> t.idempotencyKey().equals(Optional.of(idempotencyKey)))
                .findFirst();
    }

    @Override
    public synchronized Task update(TaskId id, UnaryOperator<Task> change) {
        Task current = require(id);
        Task next = change.apply(current);
        if (next == current) {
            return current;
        }
        if (!next.id().equals(id)) {
            throw new IllegalArgumentException("update must keep the task id");
        }
        Task stored = next.withEventCount(current.eventCount());
        if (stored.isTerminal()) {
            staleAll(id);
        }
        tasks.put(id, stored);
        return stored;
    }

    @Override
    public synchronized Task update(
            TaskId id, UnaryOperator<Task> change, Function<Task, List<NewEvent>> announce, int maxEventsPerTask) {
        Task before = require(id);
        Task after = update(id, change);
        if (after == before) {
            return after;
        }
        for (NewEvent event : announce.apply(after)) {
            if (require(id).eventCount() < maxEventsPerTask) {
                appendEvent(id, event.eventType(), event.payloadJson(), event.createdAt(), maxEventsPerTask);
            }
        }
        return require(id);
    }

    @Override
    public synchronized TaskEvent appendEvent(
            TaskId id, String eventType, String payloadJson, Instant createdAt, int maxEventsPerTask) {
        Task task = require(id);
        if (task.eventCount() >= maxEventsPerTask) {
            throw new ServerFsException(ErrorCode.AGENT_EVENT_LIMIT_REACHED, "task event limit reached");
        }
        TaskEvent event = new TaskEvent(nextEventId++, id, eventType, payloadJson, createdAt);
        events.add(event);
        tasks.put(id, task.withEventCount(task.eventCount() + 1));
        return event;
    }

    @Override
    public synchronized List<TaskEvent> events(TaskId id, long afterEventId, int limit) {
        return events.stream()
                .filter(e -> e.taskId().equals(id) && e.eventId() > afterEventId)
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized Task openRequest(PendingRequest request) {
        Task task = require(request.taskId());
        if (requests.containsKey(request.id())) {
            throw new ServerFsException(ErrorCode.REQUEST_EXISTS, "request already exists");
        }
        boolean pending = task.pendingRequestId().isPresent()
                || requests.values().stream()
                        .anyMatch(r -> r.taskId().equals(task.id()) && r.status() == RequestStatus.PENDING);
        if (pending) {
            throw new ServerFsException(ErrorCode.REQUEST_PENDING, "the task already has a pending request");
        }
        Task waiting = task.awaiting(request.kind(), request.id(), request.createdAt());
        requests.put(request.id(), request);
        tasks.put(task.id(), waiting);
        return waiting;
    }

    @Override
    public synchronized Optional<PendingRequest> findRequest(RequestId id) {
        return Optional.ofNullable(requests.get(id));
    }

    @Override
    public synchronized Task resolveRequest(TaskId taskId, RequestId requestId, String resolutionJson, Instant now) {
        PendingRequest request = requirePending(taskId, requestId);
        Task running = tasks.get(taskId).resumed(now);
        requests.put(requestId, request.resolved(resolutionJson, now));
        tasks.put(taskId, running);
        return running;
    }

    @Override
    public synchronized Task abandonRequest(TaskId taskId, RequestId requestId, Instant now) {
        PendingRequest request = requirePending(taskId, requestId);
        Task running = tasks.get(taskId).resumed(now);
        requests.put(requestId, request.stale());
        tasks.put(taskId, running);
        return running;
    }

    @Override
    public synchronized List<Task> list(boolean includeTerminal) {
        return tasks.values().stream()
                .filter(t -> includeTerminal || !t.isTerminal())
                .sorted(Comparator.comparing(Task::createdAt).thenComparing(t -> t.id().value()))
                .toList();
    }

    @Override
    public synchronized List<TaskId> terminalCompletedBefore(Instant cutoff) {
        return tasks.values().stream()
                .filter(t -> t.completedAt().map(c -> c.isBefore(cutoff)).orElse(false))
                .map(Task::id)
                .toList();
    }

    @Override
    public synchronized boolean deleteTerminal(TaskId id) {
        Task task = tasks.get(id);
        if (task == null || !task.isTerminal()) {
            return false;
        }
        tasks.remove(id);
        events.removeIf(e -> e.taskId().equals(id));
        requests.values().removeIf(r -> r.taskId().equals(id));
        return true;
    }

    private Task require(TaskId id) {
        Task task = tasks.get(id);
        if (task == null) {
            throw new ServerFsException(ErrorCode.AGENT_TASK_NOT_FOUND, "unknown task");
        }
        return task;
    }

    private PendingRequest requirePending(TaskId taskId, RequestId requestId) {
        PendingRequest request = requests.get(requestId);
        if (request == null || !request.taskId().equals(taskId)) {
            throw new ServerFsException(ErrorCode.REQUEST_NOT_FOUND, "unknown request");
        }
        switch (request.status()) {
            case PENDING -> {}
            case RESOLVED ->
                throw new ServerFsException(ErrorCode.REQUEST_ALREADY_RESOLVED, "request already resolved");
            case STALE -> throw new ServerFsException(ErrorCode.REQUEST_STALE, "request is stale");
        }
        Task task = require(taskId);
        if (!task.pendingRequestId().equals(Optional.of(requestId))) {
            throw new ServerFsException(ErrorCode.REQUEST_STALE, "request is stale");
        }
        return request;
    }

    private void staleAll(TaskId id) {
        requests.replaceAll((rid, r) -> r.taskId().equals(id) && r.status() == RequestStatus.PENDING ? r.stale() : r);
    }
}
