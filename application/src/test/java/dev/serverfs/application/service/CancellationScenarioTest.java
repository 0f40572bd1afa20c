package dev.serverfs.application.service;

import static dev.serverfs.application.service.AgentHarness.assertCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.RequestStatus;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskStatus;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CancellationScenarioTest {
    private final AgentHarness h = new AgentHarness();
    private final CountDownLatch cleanupMayFinish = new CountDownLatch(1);

    @AfterEach
    void close() {
        cleanupMayFinish.countDown();
        h.close();
    }

    /** A provider that, once cancelled, takes its time to stop (delayed cleanup), ignoring interrupts. */
    private void slowToStopTurn() {
        h.fake.turn = (r, c) -> {
            c.providerStarted(new ProviderProcess(777, 1));
            // A real provider may not react to the interrupt at once.
            awaitIgnoringInterrupts(h.fake.cancelled);
            awaitIgnoringInterrupts(cleanupMayFinish);
            throw new dev.serverfs.domain.error.ServerFsException(ErrorCode.AGENT_PROVIDER_DISCONNECTED, "stopped");
        };
    }

    static void awaitIgnoringInterrupts(CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException ignored) {
                // keep waiting
            }
        }
    }

    @Test
    void cancel_persists_cancelled_before_returning_while_the_lease_waits_for_cleanup() throws Exception {
        slowToStopTurn();
        Task t = h.submitted("wait:", Optional.empty());
        h.awaitStatus(t.id(), TaskStatus.RUNNING);

        assertEquals(TaskStatus.CANCELLED, h.cancel.cancel(t.id()).status());

        assertEquals(TaskStatus.CANCELLED, h.get.get(t.id()).status(), "read agrees with the cancel RPC");
        assertTrue(h.leases.isHeld(1), "lease still held during provider cleanup");
        assertCode(ErrorCode.WORKDIR_BUSY, () -> h.leases.acquireForMutation(1));
        assertTrue(h.lifecycle.isLive(t.id()));

        cleanupMayFinish.countDown();
        h.awaitDrained(t.id());
        assertFalse(h.leases.isHeld(1));
        assertTrue(h.leases.readGuard(1).isPresent(), "no proof of stop yet: guard kept");
        assertEquals(TaskStatus.CANCELLED, h.task(t.id()).status(), "late provider error does not rewrite it");
        assertTrue(h.eventTypes(t.id()).contains("task.cancelled"));
    }

    @Test
    void a_normal_result_after_interrupt_still_records_the_stop() throws Exception {
        h.fake.turn = (r, c) -> {
            // Like Claude after interrupt(): the turn ends with a normal result rather than an error.
            awaitIgnoringInterrupts(h.fake.cancelled);
            return new TurnOutcome("finished anyway", NativeIds.NONE);
        };
        Task t = h.submitted("wait:", Optional.empty());
        h.awaitStatus(t.id(), TaskStatus.RUNNING);
        h.cancel.cancel(t.id());
        h.awaitDrained(t.id());
        assertEquals(TaskStatus.CANCELLED, h.task(t.id()).status());
        assertEquals(Optional.empty(), h.leases.readGuard(1), "a clean provider return is proof of stop");
        assertFalse(h.leases.isHeld(1));
    }

    @Test
    void a_provider_whose_cancel_never_returns_does_not_block_cancellation() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        h.fake.onCancel = () -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        h.fake.turn = (r, c) -> {
            new CountDownLatch(1).await(); // returns only when interrupted
            return new TurnOutcome("unreachable", NativeIds.NONE);
        };
        Task t = h.submitted("wait:", Optional.empty());
        h.awaitStatus(t.id(), TaskStatus.RUNNING);
        long started = System.nanoTime();
        assertEquals(TaskStatus.CANCELLED, h.cancel.cancel(t.id()).status());
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toMillis() < 5_000, "bounded cancel");
        h.awaitDrained(t.id());
        assertFalse(h.leases.isHeld(1), "background cleanup completed");
        assertTrue(h.leases.readGuard(1).isPresent(), "the timed-out interrupt is no proof");
        never.countDown();
    }

    @Test
    void approval_cancel_task_takes_the_cancel_path() throws Exception {
        h.fake.turn = (r, c) -> {
            c.requestApproval(InteractionScenarioTest.approval());
            h.fake.cancelled.await();
            return new TurnOutcome("stopped", NativeIds.NONE);
        };
        Task t = h.submitted("approval:x", Optional.empty());
        Task waiting = h.awaitTask(t.id(), x -> x.status().isWaiting());
        h.approvals.respond(
                t.id(),
                waiting.pendingRequestId().orElseThrow(),
                new ApprovalResolution(ApprovalDecision.CANCEL_TASK, Optional.empty()));
        assertEquals(TaskStatus.CANCELLED, h.task(t.id()).status(), "cancelled when the approval RPC returns");
        assertEquals(1, h.fake.cancels.get());
        h.awaitDrained(t.id());
        assertFalse(h.leases.isHeld(1));
        assertTrue(h.eventTypes(t.id()).containsAll(java.util.List.of("approval.resolved", "task.cancelled")));
    }

    @Test
    void approval_cancel_task_is_terminal_before_the_turn_could_finish_on_the_decision() throws Exception {
        java.util.concurrent.CompletableFuture<Object> seen = new java.util.concurrent.CompletableFuture<>();
        h.fake.turn = (r, c) -> {
            try {
                seen.complete(c.requestApproval(InteractionScenarioTest.approval()));
            } catch (dev.serverfs.domain.error.ServerFsException e) {
                seen.complete(e.code());
                throw e;
            }
            // a provider that ends its turn at once on any decision
            return new TurnOutcome("finished on the decision", NativeIds.NONE);
        };
        Task t = h.submitted("approval:x", Optional.empty());
        Task waiting = h.awaitTask(t.id(), x -> x.status().isWaiting());
        h.approvals.respond(
                t.id(),
                waiting.pendingRequestId().orElseThrow(),
                new ApprovalResolution(ApprovalDecision.CANCEL_TASK, Optional.empty()));
        assertEquals(ErrorCode.AGENT_TASK_TERMINAL, seen.get(), "the turn never got a decision to finish on");
        h.awaitDrained(t.id());
        assertEquals(TaskStatus.CANCELLED, h.task(t.id()).status());
        assertFalse(h.eventTypes(t.id()).contains("task.completed"));
    }

    @Test
    void cancelling_a_waiting_task_stales_its_request_and_repeats_safely() throws Exception {
        h.fake.turn = (r, c) -> {
            c.requestApproval(InteractionScenarioTest.approval());
            return new TurnOutcome("x", NativeIds.NONE);
        };
        Task t = h.submitted("approval:x", Optional.empty());
        Task waiting = h.awaitTask(t.id(), x -> x.status().isWaiting());
        h.cancel.cancel(t.id());
        assertEquals(
                RequestStatus.STALE,
                h.store
                        .findRequest(waiting.pendingRequestId().orElseThrow())
                        .orElseThrow()
                        .status());
        assertEquals(TaskStatus.CANCELLED, h.cancel.cancel(t.id()).status());
        h.awaitDrained(t.id());
        assertEquals(1, h.fake.cancels.get(), "provider cancel attempted once");
        assertEquals(0, h.timers.active());
    }

    @Test
    void not_polling_and_disconnecting_never_cancel_a_healthy_task() throws Exception {
        CountDownLatch finish = new CountDownLatch(1);
        h.fake.turn = (r, c) -> {
            finish.await();
            return new TurnOutcome("done", NativeIds.NONE);
        };
        Task t = h.submitted("long job", Optional.of("k"));
        h.awaitStatus(t.id(), TaskStatus.RUNNING);
        // Nobody polls for almost the whole task lifetime; every timer that is due fires.
        h.clock.advance(Duration.ofSeconds(7199));
        h.timers.fireDue();
        assertEquals(TaskStatus.RUNNING, h.task(t.id()).status());
        assertEquals(0, h.fake.cancels.get());
        finish.countDown();
        assertEquals(
                TaskStatus.SUCCEEDED,
                h.awaitStatus(t.id(), TaskStatus.SUCCEEDED).status());
    }

    @Test
    void the_task_deadline_interrupts_with_task_timed_out() throws Exception {
        h.fake.reconcileAnswer = ProviderState.STOPPED;
        h.fake.turn = (r, c) -> {
            new CountDownLatch(1).await();
            return new TurnOutcome("x", NativeIds.NONE);
        };
        Task t = h.submitted("wait:", Optional.empty());
        h.awaitStatus(t.id(), TaskStatus.RUNNING);
        h.clock.advance(Duration.ofSeconds(7200));
        h.timers.fireDue();
        assertEquals(
                ErrorCode.AGENT_TASK_TIMED_OUT,
                h.task(t.id()).failure().orElseThrow().code());
        h.awaitDrained(t.id());
        assertFalse(h.leases.isHeld(1));
        assertEquals(Optional.empty(), h.leases.readGuard(1), "proven stop clears the guard");
    }

    @Test
    void messages_reach_a_running_task_only() throws Exception {
        CountDownLatch finish = new CountDownLatch(1);
        h.fake.turn = (r, c) -> {
            finish.await();
            return new TurnOutcome("done", NativeIds.NONE);
        };
        Task t = h.submitted("steer:", Optional.empty());
        h.awaitStatus(t.id(), TaskStatus.RUNNING);
        h.messages.send(t.id(), "also update the docs");
        assertEquals(java.util.List.of("also update the docs"), h.fake.steers);
        assertCode(ErrorCode.AGENT_MESSAGE_TOO_LARGE, () -> h.messages.send(t.id(), "x".repeat(65_537)));
        finish.countDown();
        h.awaitStatus(t.id(), TaskStatus.SUCCEEDED);
        assertCode(ErrorCode.AGENT_TASK_TERMINAL, () -> h.messages.send(t.id(), "late"));
        assertTrue(h.eventTypes(t.id()).contains("user.message"));
    }
}
