package dev.serverfs.application.service;

import static dev.serverfs.application.service.AgentHarness.assertCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.application.testing.InMemoryTaskStore;
import dev.serverfs.application.testing.InMemoryWriterLeases;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.task.AgentLimits;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskFailure;
import dev.serverfs.domain.task.TaskStatus;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class RecoveryScenarioTest {

    /**
     * A task whose provider is running (until {@code never} opens) when its service is killed with {@code kill -9}:
     * the process vanishes without any cleanup; its flock goes with it, guard and row stay.
     */
    private static Task runUntilKilled(
            AgentHarness before, InMemoryWriterLeases leases, CountDownLatch never, ProviderProcess provider)
            throws Exception {
        before.fake.turn = (r, c) -> {
            c.providerStarted(provider);
            never.await();
            return new TurnOutcome("x", NativeIds.NONE);
        };
        Task t = before.submitted("wait:", Optional.empty());
        before.awaitTask(
                t.id(), x -> leases.readGuard(1).flatMap(g -> g.provider()).isPresent());
        leases.crash();
        return t;
    }

    @Test
    void after_a_crash_the_guard_fails_closed_until_the_provider_is_proven_gone() throws Exception {
        InMemoryTaskStore store = new InMemoryTaskStore();
        InMemoryWriterLeases leases = new InMemoryWriterLeases();
        CountDownLatch never = new CountDownLatch(1);
        Task t;
        AgentHarness before = new AgentHarness(AgentLimits.defaults(), store, leases);
        try {
            t = runUntilKilled(before, leases, never, new ProviderProcess(5150, 42));
            leases.setProcessState(5150, ProviderState.ACTIVE);
            try (AgentHarness after = new AgentHarness(AgentLimits.defaults(), store, leases)) {
                after.fake.reconcileAnswer = ProviderState.UNKNOWN;
                after.lifecycle.recoverAtStartup();

                Task recovered = after.task(t.id());
                assertEquals(TaskStatus.INTERRUPTED, recovered.status());
                assertEquals(
                        ErrorCode.BRIDGE_RESTARTED,
                        recovered.failure().orElseThrow().code());
                assertTrue(leases.readGuard(1).isPresent(), "provider still alive: guard kept");
                assertCode(ErrorCode.WORKDIR_RECOVERY_REQUIRED, () -> leases.acquireForMutation(1));
                assertCode(
                        ErrorCode.WORKDIR_RECOVERY_REQUIRED,
                        () -> after.submit.submit(AgentHarness.command("next", Optional.empty())));
                assertTrue(after.eventTypes(t.id()).contains("task.reconciled"));

                leases.setProcessState(5150, ProviderState.STOPPED);
                after.fake.turn = (r, c) -> new TurnOutcome("ok", NativeIds.NONE);
                Task next = after.submitted("next", Optional.empty());
                assertEquals(
                        TaskStatus.SUCCEEDED,
                        after.awaitStatus(next.id(), TaskStatus.SUCCEEDED).status());
                after.awaitDrained(next.id());
                assertFalse(leases.readGuard(1).isPresent());
                assertEquals(2, store.list(true).size(), "no task row lost");
            }
        } finally {
            never.countDown();
            before.close();
        }
    }

    @Test
    void a_task_whose_deadline_passed_while_the_service_was_down_says_so_in_code_and_message() throws Exception {
        InMemoryTaskStore store = new InMemoryTaskStore();
        InMemoryWriterLeases leases = new InMemoryWriterLeases();
        CountDownLatch never = new CountDownLatch(1);
        Task t;
        AgentHarness before = new AgentHarness(AgentLimits.defaults(), store, leases);
        try {
            t = runUntilKilled(before, leases, never, new ProviderProcess(7000, 9));
            leases.setProcessState(7000, ProviderState.STOPPED);
            try (AgentHarness after = new AgentHarness(AgentLimits.defaults(), store, leases)) {
                after.clock.advance(Duration.ofSeconds(AgentLimits.defaults().taskTimeoutSeconds() + 1));
                after.lifecycle.recoverAtStartup();
                TaskFailure failure = after.task(t.id()).failure().orElseThrow();
                assertEquals(ErrorCode.AGENT_TASK_TIMED_OUT, failure.code());
                assertEquals("the task deadline passed", failure.message());
            }
        } finally {
            never.countDown();
            before.close();
        }
    }

    @Test
    void lazy_reconciliation_interrupts_a_non_terminal_task_whose_provider_is_gone() throws Exception {
        InMemoryTaskStore store = new InMemoryTaskStore();
        InMemoryWriterLeases leases = new InMemoryWriterLeases();
        CountDownLatch never = new CountDownLatch(1);
        Task t;
        AgentHarness before = new AgentHarness(AgentLimits.defaults(), store, leases);
        try {
            before.fake.turn = (r, c) -> {
                c.providerStarted(new ProviderProcess(6000, 7));
                never.await();
                return new TurnOutcome("x", NativeIds.NONE);
            };
            t = before.submitted("wait:", Optional.empty());
            before.awaitTask(
                    t.id(), x -> leases.readGuard(1).flatMap(g -> g.provider()).isPresent());
            leases.crash();
            leases.setProcessState(6000, ProviderState.STOPPED);
            try (AgentHarness after = new AgentHarness(AgentLimits.defaults(), store, leases)) {
                assertTrue(after.lifecycle.reconcileSlot(1));
                Task recovered = after.task(t.id());
                assertEquals(
                        ErrorCode.AGENT_PROVIDER_INACTIVE,
                        recovered.failure().orElseThrow().code());
            }
        } finally {
            never.countDown();
            before.close();
        }
    }
}
