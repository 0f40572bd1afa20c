package dev.serverfs.application.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.out.WriterLeases.WriterLease;
import dev.serverfs.application.testing.InMemoryWriterLeases;
import dev.serverfs.application.testing.TaskFixtures;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskStatus;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MutationGateTest {

    private static final WorkdirPolicy POLICY = new WorkdirPolicy(
            false, false, List.of(), 1024, 100, 1024, false, 1024, AgentMode.DISABLED, new TreeSet<>());
    private static final Workdirs WORKDIRS = new Workdirs(List.of(
            new Workdir(3, new WorkdirAlias("rw"), Optional.empty(), Access.READ_WRITE, POLICY, Path.of("/rw")),
            new Workdir(4, new WorkdirAlias("ro"), Optional.empty(), Access.READ_ONLY, POLICY, Path.of("/ro"))));

    private static ServerFsException failure(Runnable call) {
        return assertThrows(ServerFsException.class, call::run);
    }

    @Test
    void read_only_is_checked_before_the_path_policy() {
        MutationGate gate = new MutationGate(WORKDIRS, Optional.empty());
        ServerFsException e = failure(() -> gate.target("ro", ".hidden"));
        assertEquals(ErrorCode.WORKDIR_READ_ONLY, e.code());
        assertTrue(e.getMessage().startsWith("ro:.hidden — ro is configured read-only"), e.getMessage());
        assertEquals(
                ErrorCode.HIDDEN_PATH_NOT_ALLOWED,
                failure(() -> gate.target("rw", ".hidden")).code());
        assertEquals(
                ErrorCode.WORKDIR_NOT_FOUND,
                failure(() -> gate.target("nope", "a")).code());
    }

    @Test
    void the_root_is_never_a_mutation_target() {
        MutationGate gate = new MutationGate(WORKDIRS, Optional.empty());
        for (String root : List.of("", ".", "a/..", "./")) {
            assertEquals(
                    ErrorCode.ROOT_MUTATION_NOT_ALLOWED,
                    failure(() -> gate.target("rw", root)).code());
        }
        assertEquals(List.of("a", "b"), gate.target("rw", "a/./b").path().parts());
    }

    @Test
    void the_slot_lease_is_held_during_the_mutation_and_released_after() {
        InMemoryWriterLeases leases = new InMemoryWriterLeases();
        MutationGate gate = new MutationGate(WORKDIRS, Optional.of(leases));
        MutationGate.Target target = gate.target("rw", "f");
        assertTrue(gate.run(target, () -> leases.isHeld(3)));
        assertFalse(leases.isHeld(3));
        assertThrows(
                IllegalStateException.class,
                () -> gate.run(target, () -> {
                    throw new IllegalStateException("mutation failed");
                }));
        assertFalse(leases.isHeld(3), "released on failure too");
    }

    @Test
    void an_agent_writer_makes_the_mutation_busy_and_it_never_runs() {
        InMemoryWriterLeases leases = new InMemoryWriterLeases();
        MutationGate gate = new MutationGate(WORKDIRS, Optional.of(leases));
        MutationGate.Target target = gate.target("rw", "f");
        AtomicBoolean ran = new AtomicBoolean();
        try (WriterLease _ = leases.acquire(3)) {
            ServerFsException e = failure(() -> gate.run(target, () -> ran.getAndSet(true)));
            assertEquals(ErrorCode.WORKDIR_BUSY, e.code());
            assertEquals("rw:f — rw has an active Agent writer", e.getMessage());
        }
        assertFalse(ran.get());
    }

    @Test
    void without_agent_delegation_no_lease_is_taken() {
        InMemoryWriterLeases leases = new InMemoryWriterLeases();
        MutationGate gate = new MutationGate(WORKDIRS, Optional.empty());
        try (WriterLease _ = leases.acquire(3)) {
            assertTrue(gate.run(gate.target("rw", "f"), () -> true));
        }
        assertEquals(1, leases.acquisitions.get());
    }

    // ------------------------------------------------------------------ lazy reconciliation (embedded Agent)

    /** A running task of slot 1 ("docs") left by a crashed Agent service: its guard records provider pid 4242. */
    private static Task crashedTaskWithGuard(AgentHarness h) {
        Task queued = TaskFixtures.queued(0);
        h.store.insert(queued, 4);
        Task task = h.store.update(queued.id(), t -> TaskFixtures.running(0));
        try (WriterLease lease = h.leases.acquire(task.workdirSlot())) {
            lease.publishGuard(RecoveryGuard.forTask(task, task.createdAt())
                    .withProvider(new ProviderProcess(4242, 9), task.createdAt()));
        }
        return task;
    }

    @Test
    void a_guard_whose_provider_is_proven_gone_is_reconciled_lazily_and_the_mutation_runs() {
        try (AgentHarness h = new AgentHarness()) {
            Task task = crashedTaskWithGuard(h);
            h.leases.setProcessState(4242, ProviderState.STOPPED);
            MutationGate gate = new MutationGate(h.workdirs, Optional.of(h.leases), h.lifecycle);
            assertTrue(gate.run(gate.target("docs", "f"), () -> h.leases.isHeld(1)));
            assertEquals(Optional.empty(), h.leases.readGuard(1), "proof of stop: the guard is gone");
            Task recovered = h.task(task.id());
            assertEquals(TaskStatus.INTERRUPTED, recovered.status());
            assertEquals(
                    ErrorCode.AGENT_PROVIDER_INACTIVE,
                    recovered.failure().orElseThrow().code());
            assertFalse(h.leases.isHeld(1));
        }
    }

    @Test
    void unknown_or_active_provider_state_stays_fail_closed_and_the_mutation_never_runs() {
        for (ProviderState state : List.of(ProviderState.UNKNOWN, ProviderState.ACTIVE)) {
            try (AgentHarness h = new AgentHarness()) {
                Task task = crashedTaskWithGuard(h);
                h.leases.setProcessState(4242, state);
                MutationGate gate = new MutationGate(h.workdirs, Optional.of(h.leases), h.lifecycle);
                AtomicBoolean ran = new AtomicBoolean();
                ServerFsException e = failure(() -> gate.run(gate.target("docs", "f"), () -> ran.getAndSet(true)));
                assertEquals(ErrorCode.WORKDIR_RECOVERY_REQUIRED, e.code(), state.name());
                assertEquals(
                        "docs:f — docs needs Agent recovery before it can be changed (a recovery guard is present)",
                        e.getMessage());
                assertFalse(ran.get());
                assertTrue(h.leases.readGuard(1).isPresent());
                assertEquals(TaskStatus.RUNNING, h.task(task.id()).status(), "nothing proven: task untouched");
                assertFalse(h.leases.isHeld(1));
            }
        }
    }

    @Test
    void without_an_agent_service_in_this_process_a_guard_is_never_reconciled_by_a_mutation() {
        try (AgentHarness h = new AgentHarness()) {
            crashedTaskWithGuard(h);
            h.leases.setProcessState(4242, ProviderState.STOPPED);
            MutationGate gate = new MutationGate(h.workdirs, Optional.of(h.leases));
            assertEquals(
                    ErrorCode.WORKDIR_RECOVERY_REQUIRED,
                    failure(() -> gate.run(gate.target("docs", "f"), () -> true))
                            .code());
            assertTrue(h.leases.readGuard(1).isPresent(), "the split deployment's Bridge reconciles on its own");
        }
    }

    @Test
    void a_slow_reconciliation_does_not_hold_the_process_wide_lock() throws Exception {
        InMemoryWriterLeases leases = new InMemoryWriterLeases();
        java.util.concurrent.CountDownLatch reconciling = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch otherDone = new java.util.concurrent.CountDownLatch(1);
        AtomicBoolean otherRanDuringReconcile = new AtomicBoolean();
        MutationGate[] gate = new MutationGate[1];
        gate[0] = new MutationGate(WORKDIRS, Optional.of(leases), slot -> {
            reconciling.countDown();
            try {
                // a mutation of another workdir must get through while this one waits for proof of stop
                otherRanDuringReconcile.set(otherDone.await(10, java.util.concurrent.TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        });
        try (WriterLease agent = leases.acquire(3)) {
            agent.publishGuard(RecoveryGuard.forTask(TaskFixtures.running(2), TaskFixtures.T0));
        }
        MutationGate.Target guarded = gate[0].target("rw", "f");
        Thread other = Thread.ofVirtual().start(() -> {
            try {
                reconciling.await();
                gate[0].run(new MutationGate.Target(WORKDIRS.require("ro"), guarded.path(), "ro:f"), () -> true);
                otherDone.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertEquals(
                ErrorCode.WORKDIR_RECOVERY_REQUIRED,
                failure(() -> gate[0].run(guarded, () -> true)).code());
        other.join();
        assertTrue(otherRanDuringReconcile.get(), "the other mutation ran while the guard was being reconciled");
    }

    @Test
    void recovery_is_asked_once_only_for_a_guard_and_its_failure_stays_fail_closed() {
        InMemoryWriterLeases leases = new InMemoryWriterLeases();
        AtomicInteger asked = new AtomicInteger();
        MutationGate gate = new MutationGate(WORKDIRS, Optional.of(leases), slot -> {
            asked.incrementAndGet();
            throw new ServerFsException(ErrorCode.WORKDIR_BUSY, "slot is busy");
        });
        MutationGate.Target target = gate.target("rw", "f");
        try (WriterLease _ = leases.acquire(3)) {
            assertEquals(
                    ErrorCode.WORKDIR_BUSY,
                    failure(() -> gate.run(target, () -> true)).code());
        }
        assertEquals(0, asked.get(), "a busy slot is not a recovery case");
        try (WriterLease agent = leases.acquire(3)) {
            agent.publishGuard(RecoveryGuard.forTask(TaskFixtures.running(2), TaskFixtures.T0));
        }
        assertEquals(
                ErrorCode.WORKDIR_RECOVERY_REQUIRED,
                failure(() -> gate.run(target, () -> true)).code());
        assertEquals(1, asked.get());
        MutationGate lying = new MutationGate(WORKDIRS, Optional.of(leases), slot -> true);
        assertEquals(
                ErrorCode.WORKDIR_RECOVERY_REQUIRED,
                failure(() -> lying.run(target, () -> true)).code(),
                "the lease is tried once more, never more, and the guard still decides");
    }
}
