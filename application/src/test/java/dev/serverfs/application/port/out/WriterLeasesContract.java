package dev.serverfs.application.port.out;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.out.WriterLeases.WriterLease;
import dev.serverfs.application.testing.TaskFixtures;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.Task;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The executable contract of {@link WriterLeases} (reference §2.8, §6.1-§6.2), run against {@code
 * InMemoryWriterLeases} and the flock adapter. Extend it with a factory for fresh leases over an empty lock dir.
 */
public abstract class WriterLeasesContract {
    protected WriterLeases leases;

    protected abstract WriterLeases newLeases() throws Exception;

    @BeforeEach
    void createLeases() throws Exception {
        leases = newLeases();
    }

    private static void assertCode(ErrorCode code, Executable call) {
        assertEquals(code, assertThrows(ServerFsException.class, call).code());
    }

    private static RecoveryGuard guard(int taskNumber, int slot) {
        Task t = TaskFixtures.queued(taskNumber);
        return new RecoveryGuard(
                slot,
                t.id(),
                t.runtime().wire(),
                t.workdirAlias().value(),
                t.correlationId(),
                NativeIds.NONE,
                Optional.empty(),
                TaskFixtures.T0,
                TaskFixtures.T0);
    }

    @Test
    void a_slot_has_one_holder_and_a_second_is_refused_not_queued() {
        try (WriterLease lease = leases.acquire(3)) {
            assertEquals(3, lease.slot());
            assertCode(ErrorCode.WORKDIR_BUSY, () -> leases.acquire(3));
            assertCode(ErrorCode.WORKDIR_BUSY, () -> leases.acquireForMutation(3));
            leases.acquire(4).close();
        }
        leases.acquire(3).close();
    }

    @Test
    void slots_outside_one_to_sixteen_are_invalid() {
        assertCode(ErrorCode.INVALID_WORKDIR_SLOT, () -> leases.acquire(0));
        assertCode(ErrorCode.INVALID_WORKDIR_SLOT, () -> leases.acquire(17));
        assertCode(ErrorCode.INVALID_WORKDIR_SLOT, () -> leases.readGuard(17));
    }

    @Test
    void guards_are_create_only_and_survive_the_lease() {
        RecoveryGuard g = guard(1, 2);
        try (WriterLease lease = leases.acquire(2)) {
            lease.publishGuard(g);
            assertCode(ErrorCode.WORKDIR_RECOVERY_REQUIRED, () -> lease.publishGuard(guard(2, 2)));
        }
        assertEquals(Optional.of(g), leases.readGuard(2));
        assertCode(ErrorCode.WORKDIR_RECOVERY_REQUIRED, () -> leases.acquireForMutation(2));
        assertEquals(Optional.empty(), leases.readGuard(1));
    }

    @Test
    void guards_are_replaced_and_removed_only_for_the_same_task() {
        RecoveryGuard g = guard(1, 5);
        try (WriterLease lease = leases.acquire(5)) {
            lease.publishGuard(g);
            RecoveryGuard updated = g.withNativeIds(
                            new NativeIds(Optional.of("s"), Optional.of("t")), TaskFixtures.T0.plusSeconds(1))
                    .withProvider(new ProviderProcess(123, 456), TaskFixtures.T0.plusSeconds(2));
            lease.replaceGuard(updated);
            assertEquals(Optional.of(updated), leases.readGuard(5));
            assertCode(ErrorCode.WORKDIR_RECOVERY_REQUIRED, () -> lease.replaceGuard(guard(2, 5)));
            assertFalse(lease.removeGuard(guard(2, 5).taskId()));
            assertTrue(lease.removeGuard(g.taskId()));
            assertFalse(lease.removeGuard(g.taskId()));
        }
        assertEquals(Optional.empty(), leases.readGuard(5));
        leases.acquireForMutation(5).close();
    }
}
