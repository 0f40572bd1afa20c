package dev.serverfs.domain.task;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The persistent recovery guard {@code <lock_dir>/active/NN} of a workspace-write task (reference §6.2), plus
 * the provider child's pid and start time (CONTRACT.md §3.2). While it exists the slot is in recovery unless the
 * guard's task holds the writer lease.
 */
public record RecoveryGuard(
        int slot,
        TaskId taskId,
        String runtime,
        String workdirAlias,
        Optional<CorrelationId> correlationId,
        NativeIds nativeIds,
        Optional<ProviderProcess> provider,
        Instant createdAt,
        Instant updatedAt) {

    public static final int SCHEMA_VERSION = 1;

    public RecoveryGuard {
        if (slot < 1 || slot > 16) {
            throw new IllegalArgumentException("slot must be 1..16");
        }
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(workdirAlias, "workdirAlias");
        Objects.requireNonNull(correlationId, "correlationId");
        Objects.requireNonNull(nativeIds, "nativeIds");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    /** The guard a new workspace-write task publishes before its provider starts. */
    public static RecoveryGuard forTask(Task task, Instant now) {
        return new RecoveryGuard(
                task.workdirSlot(),
                task.id(),
                task.runtime().wire(),
                task.workdirAlias().value(),
                task.correlationId(),
                task.nativeIds(),
                Optional.empty(),
                now,
                now);
    }

    public RecoveryGuard withProvider(ProviderProcess process, Instant now) {
        return new RecoveryGuard(
                slot, taskId, runtime, workdirAlias, correlationId, nativeIds, Optional.of(process), createdAt, now);
    }

    public RecoveryGuard withNativeIds(NativeIds ids, Instant now) {
        return new RecoveryGuard(slot, taskId, runtime, workdirAlias, correlationId, ids, provider, createdAt, now);
    }
}
