package dev.serverfs.application.port.out;

import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.TaskId;
import java.util.Optional;

/**
 * Per-slot writer leases ({@code flock} on {@code <lock_dir>/NN.lock}) and persistent recovery guards ({@code
 * <lock_dir>/active/NN}) shared by Agent tasks and MCP mutations (reference §2.8, §6). Slots are 1..16 ({@code
 * INVALID_WORKDIR_SLOT}).
 */
public interface WriterLeases {

    /**
     * Takes the slot's lease for a workspace-write task without waiting: busy → {@code WORKDIR_BUSY}; lock file
     * not a regular file → {@code LOCK_PATH_UNSAFE}. The guard is not checked here.
     */
    WriterLease acquire(int slot);

    /**
     * Takes the slot's lease for one MCP mutation: busy → {@code WORKDIR_BUSY}; a guard present → {@code
     * WORKDIR_RECOVERY_REQUIRED}; lock file or guard unusable → {@code AGENT_LOCK_UNAVAILABLE}.
     */
    WriterLease acquireForMutation(int slot);

    /** The slot's guard; unreadable, invalid or not a regular file → {@code WORKDIR_RECOVERY_REQUIRED}. */
    Optional<RecoveryGuard> readGuard(int slot);

    /** Whether the recorded provider process provably stopped (pid gone, or reused with another start time). */
    ProviderState providerState(ProviderProcess process);

    /** A held lease; closing releases the {@code flock}. Guard changes require holding the slot's lease. */
    interface WriterLease extends AutoCloseable {
        int slot();

        /** Publishes the guard atomically and create-only: an existing guard → {@code WORKDIR_RECOVERY_REQUIRED}. */
        void publishGuard(RecoveryGuard guard);

        /** Atomically replaces the guard, which must name the same task ({@code WORKDIR_RECOVERY_REQUIRED}). */
        void replaceGuard(RecoveryGuard guard);

        /** Removes the guard if it names {@code taskId}; returns whether it was removed. */
        boolean removeGuard(TaskId taskId);

        /** Releases the lease; idempotent. */
        @Override
        void close();
    }
}
