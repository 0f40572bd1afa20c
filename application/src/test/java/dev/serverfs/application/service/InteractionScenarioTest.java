package dev.serverfs.application.service;

import static dev.serverfs.application.service.AgentHarness.assertCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.in.TaskView;
import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalRequest;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.Question;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionOption;
import dev.serverfs.domain.task.QuestionRequest;
import dev.serverfs.domain.task.RequestStatus;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskStatus;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InteractionScenarioTest {
    private final AgentHarness h = new AgentHarness();

    @AfterEach
    void close() {
        h.close();
    }

    static ApprovalRequest approval() {
        return new ApprovalRequest(
                "command",
                "run the tests",
                List.of(),
                List.of(ApprovalDecision.APPROVE_ONCE, ApprovalDecision.DENY, ApprovalDecision.CANCEL_TASK),
                JsonValue.object()
                        .put("command_display", "mvn test")
                        .put("cwd", AgentHarness.ROOT + "/src")
                        .build());
    }

    private void approvalTurn() {
        h.fake.turn = (r, c) -> {
            c.providerStarted(new ProviderProcess(4242, 99));
            ApprovalResolution res = c.requestApproval(approval());
            return new TurnOutcome(
                    "decided " + res.decision().wire() + " in " + AgentHarness.ROOT,
                    new NativeIds(Optional.of("s1"), Optional.of("t1")));
        };
    }

    private PendingRequest awaitPending(Task t) {
        // Wait for the request and its event (the event is appended right after the request is stored).
        Task waiting = h.awaitTask(
                t.id(),
                x -> x.status().isWaiting() && h.eventTypes(t.id()).stream().anyMatch(e -> e.endsWith(".requested")));
        return h.store.findRequest(waiting.pendingRequestId().orElseThrow()).orElseThrow();
    }

    @Test
    void submit_approval_answer_then_succeeded() throws Exception {
        approvalTurn();
        Task t = h.submitted("approval:mvn test", Optional.of("k"));
        PendingRequest request = awaitPending(t);

        TaskView view = h.get.get(t.id());
        assertEquals(TaskStatus.WAITING_FOR_APPROVAL, view.status());
        assertEquals(Optional.of(request), view.pendingRequest());
        assertTrue(request.payloadJson().contains("\"cwd\":\"src\""), "payload is redacted");
        assertEquals(Optional.of(AgentHarness.START.plusSeconds(1800)), request.expiresAt());
        assertEquals(2, h.timers.active(), "deadline plus one interaction timer");

        h.approvals.respond(
                t.id(), request.id(), new ApprovalResolution(ApprovalDecision.APPROVE_ONCE, Optional.empty()));
        assertFalse(
                h.timers.activeDueTimes().contains(AgentHarness.START.plusSeconds(1800)),
                "the interaction timer is cancelled on resolution");

        Task done = h.awaitStatus(t.id(), TaskStatus.SUCCEEDED);
        h.awaitDrained(t.id());
        assertEquals(
                "decided approve_once in <workdir>", done.result().orElseThrow().finalResponse());
        assertEquals(
                RequestStatus.RESOLVED,
                h.store.findRequest(request.id()).orElseThrow().status());
        assertFalse(h.leases.isHeld(1), "lease released");
        assertEquals(Optional.empty(), h.leases.readGuard(1), "guard removed after a clean return");
        assertEquals(0, h.timers.active());
        assertEquals(
                List.of("task.started", "approval.requested", "approval.resolved", "task.completed"),
                h.eventTypes(t.id()));
        assertCode(
                ErrorCode.REQUEST_ALREADY_RESOLVED,
                () -> h.approvals.respond(
                        t.id(), request.id(), new ApprovalResolution(ApprovalDecision.DENY, Optional.empty())));
    }

    @Test
    void question_answers_are_validated_then_delivered() throws Exception {
        QuestionRequest questions = new QuestionRequest(List.of(new Question(
                "q1",
                "which?",
                List.of(new QuestionOption("a", "A", Optional.empty()), new QuestionOption("b", "B", Optional.empty())),
                false,
                true)));
        h.fake.turn = (r, c) -> {
            List<QuestionAnswer> answers = c.askQuestion(questions);
            return new TurnOutcome("picked " + answers.getFirst().selectedOptionIds(), NativeIds.NONE);
        };
        Task t = h.submitted("question:which?", Optional.empty());
        PendingRequest request = awaitPending(t);
        assertEquals(TaskStatus.WAITING_FOR_QUESTION, h.task(t.id()).status());
        assertCode(
                ErrorCode.INVALID_QUESTION_ANSWER,
                () -> h.answers.answer(
                        t.id(), request.id(), List.of(new QuestionAnswer("q1", List.of("a", "b"), Optional.empty()))));
        assertCode(
                ErrorCode.INVALID_APPROVAL_DECISION,
                () -> h.approvals.respond(
                        t.id(), request.id(), new ApprovalResolution(ApprovalDecision.DENY, Optional.empty())));
        h.answers.answer(t.id(), request.id(), List.of(new QuestionAnswer("q1", List.of("b"), Optional.empty())));
        Task done = h.awaitStatus(t.id(), TaskStatus.SUCCEEDED);
        assertEquals("picked [b]", done.result().orElseThrow().finalResponse());
        assertTrue(h.eventTypes(t.id()).contains("question.answered"));
    }

    @Test
    void approval_decisions_outside_the_offer_are_refused() throws Exception {
        approvalTurn();
        Task t = h.submitted("approval:x", Optional.empty());
        PendingRequest request = awaitPending(t);
        assertCode(
                ErrorCode.INVALID_APPROVAL_DECISION,
                () -> h.approvals.respond(
                        t.id(),
                        request.id(),
                        new ApprovalResolution(ApprovalDecision.APPROVE_SESSION, Optional.empty())));
        assertCode(
                ErrorCode.PERMISSION_OUTSIDE_POLICY,
                () -> h.approvals.respond(
                        t.id(),
                        request.id(),
                        new ApprovalResolution(ApprovalDecision.APPROVE_ONCE, Optional.of(List.of("nope")))));
        assertEquals(TaskStatus.WAITING_FOR_APPROVAL, h.task(t.id()).status());
    }

    @Test
    void interaction_timeout_interrupts_stales_releases_the_lease_and_keeps_the_guard_without_proof() throws Exception {
        approvalTurn();
        h.fake.reconcileAnswer = ProviderState.UNKNOWN;
        Task t = h.submitted("approval:x", Optional.empty());
        PendingRequest request = awaitPending(t);

        h.clock.advance(Duration.ofSeconds(1799));
        assertEquals(0, h.timers.fireDue());
        h.clock.advance(Duration.ofSeconds(1));
        assertEquals(1, h.timers.fireDue());

        Task interrupted = h.task(t.id());
        assertEquals(TaskStatus.INTERRUPTED, interrupted.status());
        assertEquals(
                ErrorCode.AGENT_INTERACTION_TIMED_OUT,
                interrupted.failure().orElseThrow().code());
        assertEquals(
                RequestStatus.STALE,
                h.store.findRequest(request.id()).orElseThrow().status());
        assertEquals(1, h.fake.cancels.get(), "provider cancel attempted once");
        assertCode(
                ErrorCode.REQUEST_STALE,
                () -> h.approvals.respond(
                        t.id(), request.id(), new ApprovalResolution(ApprovalDecision.APPROVE_ONCE, Optional.empty())));

        h.awaitDrained(t.id());
        assertFalse(h.leases.isHeld(1), "lease released after cleanup");
        assertTrue(h.leases.readGuard(1).isPresent(), "guard kept: provider stop unproven");
        assertCode(
                ErrorCode.WORKDIR_RECOVERY_REQUIRED,
                () -> h.leases.acquireForMutation(1).close());
        assertEquals(0, h.timers.active(), "no timer left behind");
        List<String> types = h.eventTypes(t.id());
        assertTrue(types.containsAll(List.of("interaction.expired", "task.interrupted")), types.toString());

        // Once the recorded provider process is proven gone, lazy reconciliation clears the guard.
        h.leases.setProcessState(4242, ProviderState.STOPPED);
        assertTrue(h.lifecycle.reconcileSlot(1));
        assertEquals(Optional.empty(), h.leases.readGuard(1));
    }

    @Test
    void interaction_timeout_with_proven_stop_clears_the_guard() throws Exception {
        approvalTurn();
        h.fake.reconcileAnswer = ProviderState.STOPPED;
        Task t = h.submitted("approval:x", Optional.empty());
        awaitPending(t);
        h.clock.advance(Duration.ofSeconds(1800));
        h.timers.fireDue();
        h.awaitDrained(t.id());
        assertEquals(Optional.empty(), h.leases.readGuard(1));
        assertFalse(h.leases.isHeld(1));
    }

    @Test
    void a_late_answer_after_expiry_without_the_timer_interrupts_and_is_stale() throws Exception {
        approvalTurn();
        Task t = h.submitted("approval:x", Optional.empty());
        PendingRequest request = awaitPending(t);
        h.clock.advance(Duration.ofSeconds(1801)); // timer not fired yet: the answer path detects expiry itself
        assertCode(
                ErrorCode.REQUEST_STALE,
                () -> h.approvals.respond(
                        t.id(), request.id(), new ApprovalResolution(ApprovalDecision.APPROVE_ONCE, Optional.empty())));
        assertEquals(
                ErrorCode.AGENT_INTERACTION_TIMED_OUT,
                h.task(t.id()).failure().orElseThrow().code());
    }

    @Test
    void interaction_expiry_never_exceeds_the_task_deadline() throws Exception {
        CountDownLatch late = new CountDownLatch(1);
        h.fake.turn = (r, c) -> {
            late.await();
            c.requestApproval(approval());
            return new TurnOutcome("x", NativeIds.NONE);
        };
        Task t = h.submitted("approval:x", Optional.empty());
        h.awaitStatus(t.id(), TaskStatus.RUNNING);
        h.clock.advance(Duration.ofSeconds(7200 - 600));
        late.countDown();
        PendingRequest request = awaitPending(t);
        assertEquals(Optional.of(t.deadlineAt()), request.expiresAt());
        // Both timers fall due together: the interaction pending at its expiry decides the code (v0.7.3 §5).
        h.clock.advance(Duration.ofSeconds(600));
        h.timers.fireDue();
        assertEquals(
                ErrorCode.AGENT_INTERACTION_TIMED_OUT,
                h.task(t.id()).failure().orElseThrow().code());
        assertTrue(
                h.eventTypes(t.id()).contains("interaction.expired"),
                h.eventTypes(t.id()).toString());
    }
}
