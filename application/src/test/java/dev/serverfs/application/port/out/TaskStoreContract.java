package dev.serverfs.application.port.out;

import static dev.serverfs.application.testing.TaskFixtures.T0;
import static dev.serverfs.application.testing.TaskFixtures.approvalRequest;
import static dev.serverfs.application.testing.TaskFixtures.queued;
import static dev.serverfs.application.testing.TaskFixtures.requestId;
import static dev.serverfs.application.testing.TaskFixtures.running;
import static dev.serverfs.application.testing.TaskFixtures.taskId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.RequestStatus;
import dev.serverfs.domain.task.ResultStorage;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskEvent;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskResult;
import dev.serverfs.domain.task.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The executable contract of {@link TaskStore} (reference §5). Extend it with a factory for a fresh, empty store;
 * {@code InMemoryTaskStoreTest} and the SQLite adapter's test both run it. Times have microsecond precision.
 */
public abstract class TaskStoreContract {
    private static final String SHA = "ab".repeat(32);
    private static final int MAX_ACTIVE = 4;
    private static final int MAX_EVENTS = 10_000;

    protected TaskStore store;

    /** A fresh, empty store. */
    protected abstract TaskStore newStore() throws Exception;

    @BeforeEach
    void createStore() throws Exception {
        store = newStore();
    }

    private static void assertCode(ErrorCode code, Executable call) {
        ServerFsException e = assertThrows(ServerFsException.class, call);
        assertEquals(code, e.code(), e.getMessage());
    }

    private Task insertRunning(int n) {
        Task t = queued(n);
        store.insert(t, MAX_ACTIVE);
        return store.update(t.id(), x -> x.starting(T0.plusSeconds(n)).running(T0.plusSeconds(n)));
    }

    @Test
    void inserted_task_reads_back_equal() {
        Task t = queued(1, Optional.of("key-1"));
        InsertOutcome outcome = store.insert(t, MAX_ACTIVE);
        assertEquals(new InsertOutcome.Created(t), outcome);
        assertEquals(Optional.of(t), store.find(t.id()));
        assertEquals(Optional.of(t), store.findByIdempotencyKey(new IdempotencyKey("key-1")));
        assertEquals(Optional.empty(), store.find(taskId(99)));
        assertEquals(Optional.empty(), store.findByIdempotencyKey(new IdempotencyKey("other")));
    }

    @Test
    void every_column_round_trips_through_updates() {
        Task t = queued(2);
        store.insert(t, MAX_ACTIVE);
        Instant later = T0.plusSeconds(100);
        Task done = store.update(
                t.id(),
                x -> x.starting(later)
                        .running(later)
                        .withNativeIds(new NativeIds(Optional.of("sess"), Optional.of("turn")), later)
                        .succeeded(new TaskResult("héllo", ResultStorage.SPOOL, 300_000, SHA), later.plusNanos(1_000)));
        assertEquals(Optional.of(done), store.find(t.id()));
        assertEquals(TaskStatus.SUCCEEDED, done.status());
        assertEquals(Optional.of(later.plusNanos(1_000)), done.completedAt());
    }

    @Test
    void same_idempotency_key_returns_the_existing_task_and_writes_nothing() {
        Task first = queued(1, Optional.of("k"));
        store.insert(first, MAX_ACTIVE);
        InsertOutcome second = store.insert(queued(2, Optional.of("k")), MAX_ACTIVE);
        assertEquals(new InsertOutcome.Existing(first), second);
        assertEquals(Optional.empty(), store.find(taskId(2)));
        assertEquals(1, store.list(true).size());
    }

    @Test
    void tasks_without_key_never_collide() {
        store.insert(queued(1), MAX_ACTIVE);
        assertInstanceOf(InsertOutcome.Created.class, store.insert(queued(2), MAX_ACTIVE));
    }

    @Test
    void duplicate_task_id_is_refused() {
        store.insert(queued(1), MAX_ACTIVE);
        assertCode(ErrorCode.AGENT_TASK_EXISTS, () -> store.insert(queued(1), MAX_ACTIVE));
    }

    @Test
    void active_task_limit_counts_only_non_terminal_tasks() {
        store.insert(queued(1), 2);
        store.insert(queued(2), 2);
        assertCode(ErrorCode.AGENT_TASK_LIMIT_REACHED, () -> store.insert(queued(3), 2));
        store.update(taskId(1), t -> t.cancelled(T0.plusSeconds(10)));
        assertInstanceOf(InsertOutcome.Created.class, store.insert(queued(3), 2));
    }

    @Test
    void existing_key_is_returned_even_at_the_active_limit() {
        store.insert(queued(1, Optional.of("k")), 1);
        assertInstanceOf(InsertOutcome.Existing.class, store.insert(queued(2, Optional.of("k")), 1));
    }

    @Test
    void concurrent_inserts_with_one_key_create_exactly_one_task() throws Exception {
        int n = 50;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<InsertOutcome>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int id = i + 1;
                Callable<InsertOutcome> call = () -> {
                    start.await();
                    return store.insert(queued(id, Optional.of("same")), 100);
                };
                futures.add(pool.submit(call));
            }
            start.countDown();
            int created = 0;
            TaskId winner = null;
            List<TaskId> seen = new ArrayList<>();
            for (Future<InsertOutcome> f : futures) {
                InsertOutcome o = f.get();
                if (o instanceof InsertOutcome.Created c) {
                    created++;
                    winner = c.task().id();
                }
                seen.add(o.task().id());
            }
            assertEquals(1, created);
            TaskId w = winner;
            assertTrue(seen.stream().allMatch(id -> id.equals(w)));
            assertEquals(1, store.list(true).size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void update_of_unknown_task_is_not_found() {
        assertCode(ErrorCode.AGENT_TASK_NOT_FOUND, () -> store.update(taskId(5), t -> t));
    }

    @Test
    void a_throwing_change_leaves_the_task_unchanged() {
        Task t = queued(1);
        store.insert(t, MAX_ACTIVE);
        assertCode(ErrorCode.INVALID_TASK_TRANSITION, () -> store.update(t.id(), x -> x.running(T0)));
        assertEquals(Optional.of(t), store.find(t.id()));
    }

    @Test
    void events_get_global_monotonic_ids_and_are_read_after_a_cursor() {
        Task a = insertRunning(1);
        Task b = insertRunning(2);
        TaskEvent e1 = store.appendEvent(a.id(), "task.started", "{\"runtime\":\"fake\"}", T0, MAX_EVENTS);
        TaskEvent e2 = store.appendEvent(b.id(), "task.started", "{}", T0, MAX_EVENTS);
        TaskEvent e3 = store.appendEvent(a.id(), "agent.message", "{\"text\":\"é\"}", T0.plusNanos(1000), MAX_EVENTS);
        assertTrue(e1.eventId() < e2.eventId() && e2.eventId() < e3.eventId());
        assertEquals(List.of(e1, e3), store.events(a.id(), 0, 100));
        assertEquals(List.of(e3), store.events(a.id(), e1.eventId(), 100));
        assertEquals(List.of(e1), store.events(a.id(), 0, 1));
        assertEquals(List.of(), store.events(a.id(), e3.eventId(), 100));
        assertEquals(List.of(), store.events(taskId(77), 0, 100));
        assertEquals(2, store.find(a.id()).orElseThrow().eventCount());
    }

    @Test
    void event_limit_is_enforced_and_updates_never_reset_the_count() {
        Task a = insertRunning(1);
        store.appendEvent(a.id(), "x", "{}", T0, 2);
        store.update(a.id(), t -> t.withNativeIds(new NativeIds(Optional.of("s"), Optional.empty()), T0));
        store.appendEvent(a.id(), "x", "{}", T0, 2);
        assertCode(ErrorCode.AGENT_EVENT_LIMIT_REACHED, () -> store.appendEvent(a.id(), "x", "{}", T0, 2));
        assertEquals(2, store.find(a.id()).orElseThrow().eventCount());
        assertCode(ErrorCode.AGENT_TASK_NOT_FOUND, () -> store.appendEvent(taskId(9), "x", "{}", T0, 2));
    }

    @Test
    void an_update_and_its_event_are_written_together_and_an_unchanged_task_gets_no_event() {
        Task a = insertRunning(1);
        Task cancelled = store.update(
                a.id(),
                t -> t.cancelled(T0),
                t -> List.of(new NewEvent("task." + t.status().wire(), "{\"by\":\"caller\"}", T0)),
                MAX_EVENTS);
        assertEquals(TaskStatus.CANCELLED, cancelled.status());
        assertEquals(1, cancelled.eventCount());
        assertEquals(cancelled, store.find(a.id()).orElseThrow());
        List<TaskEvent> events = store.events(a.id(), 0, 100);
        assertEquals(
                List.of("task.cancelled"),
                events.stream().map(TaskEvent::eventType).toList());
        assertEquals("{\"by\":\"caller\"}", events.get(0).payloadJson());

        Task same = store.update(a.id(), t -> t, t -> List.of(new NewEvent("task.cancelled", "{}", T0)), MAX_EVENTS);
        assertEquals(1, same.eventCount());
        assertEquals(1, store.events(a.id(), 0, 100).size());
    }

    @Test
    void several_events_of_one_update_are_appended_in_order_up_to_the_cap() {
        Task a = insertRunning(1);
        Task interrupted = store.update(
                a.id(),
                t -> t.interrupted(ErrorCode.AGENT_INTERACTION_TIMED_OUT, "timed out", T0),
                t -> List.of(new NewEvent("interaction.expired", "{}", T0), new NewEvent("task.interrupted", "{}", T0)),
                MAX_EVENTS);
        assertEquals(2, interrupted.eventCount());
        assertEquals(
                List.of("interaction.expired", "task.interrupted"),
                store.events(a.id(), 0, 100).stream().map(TaskEvent::eventType).toList());

        Task b = insertRunning(2);
        Task capped = store.update(
                b.id(),
                t -> t.cancelled(T0),
                t -> List.of(new NewEvent("first", "{}", T0), new NewEvent("second", "{}", T0)),
                1);
        assertEquals(TaskStatus.CANCELLED, capped.status());
        assertEquals(
                List.of("first"),
                store.events(b.id(), 0, 100).stream().map(TaskEvent::eventType).toList());
    }

    @Test
    void the_event_cap_never_undoes_an_update_and_a_refused_change_appends_nothing() {
        Task a = insertRunning(1);
        store.appendEvent(a.id(), "x", "{}", T0, 1);
        Task cancelled =
                store.update(a.id(), t -> t.cancelled(T0), t -> List.of(new NewEvent("task.cancelled", "{}", T0)), 1);
        assertEquals(TaskStatus.CANCELLED, cancelled.status());
        assertEquals(1, cancelled.eventCount());
        assertEquals(
                List.of("x"),
                store.events(a.id(), 0, 100).stream().map(TaskEvent::eventType).toList());

        Task q = queued(2);
        store.insert(q, MAX_ACTIVE);
        assertCode(
                ErrorCode.INVALID_TASK_TRANSITION,
                () -> store.update(
                        q.id(), x -> x.running(T0), t -> List.of(new NewEvent("task.started", "{}", T0)), MAX_EVENTS));
        assertEquals(Optional.of(q), store.find(q.id()));
        assertEquals(List.of(), store.events(q.id(), 0, 100));
        assertCode(
                ErrorCode.AGENT_TASK_NOT_FOUND,
                () -> store.update(taskId(9), t -> t, t -> List.of(new NewEvent("x", "{}", T0)), MAX_EVENTS));
    }

    @Test
    void opening_a_request_moves_the_task_to_waiting() {
        Task a = insertRunning(1);
        PendingRequest r = approvalRequest(1, a.id(), T0.plusSeconds(5));
        Task waiting = store.openRequest(r);
        assertEquals(TaskStatus.WAITING_FOR_APPROVAL, waiting.status());
        assertEquals(Optional.of(r.id()), waiting.pendingRequestId());
        assertEquals(Optional.of(waiting), store.find(a.id()));
        assertEquals(Optional.of(r), store.findRequest(r.id()));
    }

    @Test
    void only_one_request_may_be_pending_and_ids_are_unique() {
        Task a = insertRunning(1);
        Task b = insertRunning(2);
        store.openRequest(approvalRequest(1, a.id(), T0));
        assertCode(ErrorCode.REQUEST_PENDING, () -> store.openRequest(approvalRequest(2, a.id(), T0)));
        assertCode(ErrorCode.REQUEST_EXISTS, () -> store.openRequest(approvalRequest(1, b.id(), T0)));
        assertEquals(TaskStatus.RUNNING, store.find(b.id()).orElseThrow().status());
    }

    @Test
    void a_request_needs_a_running_task() {
        Task q = queued(1);
        store.insert(q, MAX_ACTIVE);
        assertCode(ErrorCode.INVALID_TASK_TRANSITION, () -> store.openRequest(approvalRequest(1, q.id(), T0)));
        assertEquals(Optional.empty(), store.findRequest(requestId(1)));
        assertCode(ErrorCode.AGENT_TASK_NOT_FOUND, () -> store.openRequest(approvalRequest(2, taskId(9), T0)));
    }

    @Test
    void resolution_is_a_compare_and_set() {
        Task a = insertRunning(1);
        PendingRequest r = approvalRequest(1, a.id(), T0);
        store.openRequest(r);
        Instant now = T0.plusSeconds(30);
        Task resumed = store.resolveRequest(a.id(), r.id(), "{\"decision\":\"deny\"}", now);
        assertEquals(TaskStatus.RUNNING, resumed.status());
        assertEquals(Optional.empty(), resumed.pendingRequestId());
        PendingRequest stored = store.findRequest(r.id()).orElseThrow();
        assertEquals(RequestStatus.RESOLVED, stored.status());
        assertEquals(Optional.of(now), stored.resolvedAt());
        assertEquals(Optional.of("{\"decision\":\"deny\"}"), stored.resolutionJson());
        assertCode(ErrorCode.REQUEST_ALREADY_RESOLVED, () -> store.resolveRequest(a.id(), r.id(), "{}", now));
    }

    @Test
    void resolution_of_an_unknown_or_foreign_request_is_not_found() {
        Task a = insertRunning(1);
        Task b = insertRunning(2);
        store.openRequest(approvalRequest(1, a.id(), T0));
        assertCode(ErrorCode.REQUEST_NOT_FOUND, () -> store.resolveRequest(b.id(), requestId(1), "{}", T0));
        assertCode(ErrorCode.REQUEST_NOT_FOUND, () -> store.resolveRequest(a.id(), requestId(7), "{}", T0));
        assertEquals(
                TaskStatus.WAITING_FOR_APPROVAL,
                store.find(a.id()).orElseThrow().status());
    }

    @Test
    void terminal_update_stales_the_pending_request_and_late_answers_are_stale() {
        Task a = insertRunning(1);
        store.openRequest(approvalRequest(1, a.id(), T0));
        Task cancelled = store.update(a.id(), t -> t.cancelled(T0.plusSeconds(3)));
        assertEquals(Optional.empty(), cancelled.pendingRequestId());
        assertEquals(
                RequestStatus.STALE,
                store.findRequest(requestId(1)).orElseThrow().status());
        assertCode(ErrorCode.REQUEST_STALE, () -> store.resolveRequest(a.id(), requestId(1), "{}", T0));
    }

    @Test
    void abandoning_a_request_stales_it_and_resumes_the_task() {
        Task a = insertRunning(1);
        store.openRequest(approvalRequest(1, a.id(), T0));
        Task resumed = store.abandonRequest(a.id(), requestId(1), T0.plusSeconds(1));
        assertEquals(TaskStatus.RUNNING, resumed.status());
        assertEquals(
                RequestStatus.STALE,
                store.findRequest(requestId(1)).orElseThrow().status());
        assertCode(ErrorCode.REQUEST_STALE, () -> store.abandonRequest(a.id(), requestId(1), T0));
    }

    @Test
    void list_orders_by_creation_and_can_hide_terminal_tasks() {
        store.insert(queued(3), MAX_ACTIVE);
        store.insert(queued(1), MAX_ACTIVE);
        store.insert(queued(2), MAX_ACTIVE);
        store.update(taskId(2), t -> t.interrupted(ErrorCode.BRIDGE_RESTARTED, "restarted", T0.plusSeconds(9)));
        assertEquals(
                List.of(taskId(1), taskId(2), taskId(3)),
                store.list(true).stream().map(Task::id).toList());
        assertEquals(
                List.of(taskId(1), taskId(3)),
                store.list(false).stream().map(Task::id).toList());
    }

    @Test
    void gc_deletes_only_terminal_tasks_as_a_unit_and_frees_their_key() {
        Task a = queued(1, Optional.of("k"));
        store.insert(a, MAX_ACTIVE);
        store.update(a.id(), t -> t.starting(T0).running(T0));
        store.appendEvent(a.id(), "task.started", "{}", T0, MAX_EVENTS);
        store.openRequest(approvalRequest(1, a.id(), T0));
        store.update(a.id(), t -> t.cancelled(T0.plusSeconds(10)));
        Task b = insertRunning(2);

        assertEquals(List.of(), store.terminalCompletedBefore(T0.plusSeconds(10)));
        assertEquals(List.of(a.id()), store.terminalCompletedBefore(T0.plusSeconds(11)));
        assertFalse(store.deleteTerminal(b.id()));
        assertTrue(store.deleteTerminal(a.id()));
        assertFalse(store.deleteTerminal(a.id()));

        assertEquals(Optional.empty(), store.find(a.id()));
        assertEquals(Optional.empty(), store.findRequest(requestId(1)));
        assertEquals(List.of(), store.events(a.id(), 0, 100));
        assertEquals(Optional.empty(), store.findByIdempotencyKey(new IdempotencyKey("k")));
        assertInstanceOf(InsertOutcome.Created.class, store.insert(queued(3, Optional.of("k")), MAX_ACTIVE));
        assertTrue(store.find(b.id()).isPresent());
    }

    @Test
    void failure_fields_round_trip() {
        Task a = insertRunning(1);
        Task failed = store.update(a.id(), t -> t.failed(ErrorCode.AGENT_RESULT_TOO_LARGE, "too large", T0));
        assertEquals(Optional.of(failed), store.find(a.id()));
        assertEquals(
                ErrorCode.AGENT_RESULT_TOO_LARGE, failed.failure().orElseThrow().code());
        assertEquals(running(1).workdirSlot(), failed.workdirSlot());
    }
}
