package dev.serverfs.domain.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.WorkdirAlias;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class TaskTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final String SHA = "0".repeat(64);

    static Task queued() {
        return Task.queued(
                TaskId.fromHex("0".repeat(24)),
                RuntimeName.fromWire("fake").orElseThrow(),
                new WorkdirAlias("docs"),
                1,
                "",
                TaskProfile.WORKSPACE_WRITE,
                T0,
                T0.plusSeconds(7200),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                new StoredManifest("{}", SHA));
    }

    private static void assertInvalid(Executable e) {
        assertEquals(
                ErrorCode.INVALID_TASK_TRANSITION,
                assertThrows(ServerFsException.class, e).code());
    }

    @Test
    void a_task_walks_through_approval_to_success() {
        RequestId req = RequestId.fromHex("1".repeat(24));
        Task t = queued().starting(T0.plusSeconds(1)).running(T0.plusSeconds(2));
        Task waiting = t.awaiting(InteractionKind.APPROVAL, req, T0.plusSeconds(3));
        assertEquals(TaskStatus.WAITING_FOR_APPROVAL, waiting.status());
        assertEquals(Optional.of(req), waiting.pendingRequestId());
        Task done = waiting.resumed(T0.plusSeconds(4))
                .succeeded(new TaskResult("ok", ResultStorage.INLINE, 2, SHA), T0.plusSeconds(5));
        assertEquals(Optional.of(T0.plusSeconds(1)), done.startedAt());
        assertEquals(Optional.of(T0.plusSeconds(5)), done.completedAt());
        assertEquals(T0.plusSeconds(5), done.updatedAt());
        assertEquals(Optional.empty(), done.pendingRequestId());
        assertTrue(done.isTerminal());
    }

    @Test
    void terminal_entry_clears_the_pending_request_and_records_the_reason() {
        Task waiting = queued().starting(T0)
                .running(T0)
                .awaiting(InteractionKind.QUESTION, RequestId.fromHex("2".repeat(24)), T0);
        Task interrupted = waiting.interrupted(ErrorCode.AGENT_INTERACTION_TIMED_OUT, "timed out", T0.plusSeconds(9));
        assertEquals(Optional.empty(), interrupted.pendingRequestId());
        assertEquals(
                ErrorCode.AGENT_INTERACTION_TIMED_OUT,
                interrupted.failure().orElseThrow().code());
        assertEquals(Optional.empty(), waiting.cancelled(T0).failure());
    }

    @Test
    void illegal_moves_are_invalid_task_transitions() {
        Task q = queued();
        assertInvalid(() -> q.running(T0));
        assertInvalid(() -> q.resumed(T0));
        assertInvalid(() -> q.succeeded(new TaskResult("", ResultStorage.INLINE, 0, SHA), T0));
        Task cancelled = q.cancelled(T0);
        assertInvalid(() -> cancelled.cancelled(T0));
        assertInvalid(() -> cancelled.interrupted(ErrorCode.BRIDGE_SHUTDOWN, "x", T0));
        Task running = q.starting(T0).running(T0);
        assertInvalid(() -> running.resumed(T0));
        assertInvalid(() -> running.starting(T0));
    }

    @Test
    void state_dependent_data_is_validated_by_the_constructor() {
        Task q = queued();
        assertThrows(
                IllegalArgumentException.class,
                () -> new Task(
                        q.id(),
                        q.runtime(),
                        q.workdirAlias(),
                        q.workdirSlot(),
                        q.relativeCwd(),
                        q.profile(),
                        TaskStatus.WAITING_FOR_APPROVAL,
                        q.createdAt(),
                        Optional.of(T0),
                        q.updatedAt(),
                        Optional.empty(),
                        q.deadlineAt(),
                        q.continueFromTaskId(),
                        q.correlationId(),
                        q.idempotencyKey(),
                        q.requestFingerprint(),
                        q.nativeIds(),
                        q.result(),
                        q.manifest(),
                        q.failure(),
                        Optional.empty(),
                        0));
        assertThrows(
                IllegalArgumentException.class,
                () -> new Task(
                        q.id(),
                        q.runtime(),
                        q.workdirAlias(),
                        q.workdirSlot(),
                        q.relativeCwd(),
                        q.profile(),
                        TaskStatus.SUCCEEDED,
                        q.createdAt(),
                        Optional.of(T0),
                        q.updatedAt(),
                        Optional.of(T0),
                        q.deadlineAt(),
                        q.continueFromTaskId(),
                        q.correlationId(),
                        q.idempotencyKey(),
                        q.requestFingerprint(),
                        q.nativeIds(),
                        Optional.empty(),
                        q.manifest(),
                        q.failure(),
                        Optional.empty(),
                        0));
    }
}
