package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.ResultSpool;
import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.application.port.out.WriterLeases.WriterLease;
import dev.serverfs.application.service.SlotRecovery;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.EventType;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.ReconcileResult;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.RecoveryPolicy;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.Workdirs;
import java.time.Instant;
import java.util.Optional;

/**
 * Recovery guards, proof of provider stop and retention (reference §6.2, §6.3; v0.7.2/v0.7.3 §6): start-up
 * reconciliation, lazy reconciliation of one slot, the slot's lease for a new task, and GC of expired tasks. A
 * guard is removed only with proof that its provider stopped; unknown state stays fail-closed.
 */
public final class TaskReconciliation implements SlotRecovery {
    private final Workdirs workdirs;
    private final AgentRuntimes runtimes;
    private final TaskRecords records;
    private final ResultSpool spool;
    private final WriterLeases leases;
    private final LiveRuns live;

    public TaskReconciliation(
            Workdirs workdirs,
            AgentRuntimes runtimes,
            TaskRecords records,
            ResultSpool spool,
            WriterLeases leases,
            LiveRuns live) {
        this.workdirs = workdirs;
        this.runtimes = runtimes;
        this.records = records;
        this.spool = spool;
        this.leases = leases;
        this.live = live;
    }

    /** Deletes terminal tasks past retention as units (spool first); never a task a guard still names. */
    void gc() {
        Instant cutoff = records.now().minus(records.limits().retention());
        for (TaskId id : records.store().terminalCompletedBefore(cutoff)) {
            Optional<Task> task = records.store().find(id);
            if (task.isEmpty() || namedByGuard(task.get())) {
                continue;
            }
            try {
                spool.delete(id);
                records.store().deleteTerminal(id);
            } catch (ServerFsException ignored) {
                // retried at the next GC
            }
        }
    }

    /** {@link #gc} where a failure must not fail the caller: it is retried at the next submit. */
    void gcQuietly() {
        try {
            gc();
        } catch (RuntimeException ignored) {
            // retried later
        }
    }

    private boolean namedByGuard(Task task) {
        try {
            return leases.readGuard(task.workdirSlot())
                    .map(g -> g.taskId().equals(task.id()))
                    .orElse(false);
        } catch (ServerFsException e) {
            return true;
        }
    }

    /**
     * Start-up reconciliation (reference §6.3): every non-terminal task left by a previous process is interrupted
     * ({@code AGENT_TASK_TIMED_OUT} past its deadline, else {@code BRIDGE_RESTARTED}); guards are removed only with
     * proof that the provider stopped. Then leftover guards are reconciled lazily. Never re-runs a task.
     */
    void recoverAtStartup() {
        gc();
        for (Task task : records.store().list(false)) {
            if (!live.contains(task.id())) {
                reconcileLeftover(task);
            }
        }
        for (Workdir w : workdirs.all()) {
            try {
                reconcileSlot(w.slot());
            } catch (ServerFsException ignored) {
                // errors are ignored here: the slot stays fail-closed
            }
        }
    }

    private void reconcileLeftover(Task task) {
        records.event(
                task.id(),
                EventType.RUNTIME_RECONCILE_STARTED,
                JsonValue.object().put("runtime", task.runtime().wire()).build());
        Optional<RecoveryGuard> guard = guardNaming(task);
        ReconcileResult result = reconcileWithRuntime(task, guard);
        ProviderState state = provenState(Optional.of(task), guard);
        records.event(
                task.id(),
                EventType.RUNTIME_RECONCILE_FINISHED,
                JsonValue.object()
                        .put("runtime", task.runtime().wire())
                        .put("status", result.status().name())
                        .put("provider_active", providerActive(state))
                        .build());
        boolean beforeDeadline = records.now().isBefore(task.deadlineAt());
        ErrorCode code = beforeDeadline ? ErrorCode.BRIDGE_RESTARTED : ErrorCode.AGENT_TASK_TIMED_OUT;
        // the message says what the code says: the deadline's own text, as a task timed out while running gets
        String message = beforeDeadline ? "the Agent service restarted" : "the task deadline passed";
        records.terminate(
                task.id(),
                t -> t.interrupted(code, message, records.now()),
                t -> new TaskRecords.Announcement(
                        EventType.TASK_RECONCILED,
                        JsonValue.object()
                                .put("status", t.status().wire())
                                .put("provider_active", providerActive(state))
                                .put("error_code", code.wire())
                                .build()));
    }

    /**
     * Lazy reconciliation of one slot's guard (v0.7.2/v0.7.3): removes it only with proof the provider stopped,
     * first interrupting its still non-terminal task with {@code AGENT_PROVIDER_INACTIVE}. Returns true when the
     * slot has no guard afterwards. A guard of a task whose runner still runs is left alone; a busy slot throws
     * {@code WORKDIR_BUSY}.
     */
    @Override
    public boolean reconcileSlot(int slot) {
        Optional<RecoveryGuard> guard = leases.readGuard(slot);
        if (guard.isEmpty()) {
            return true;
        }
        if (live.contains(guard.get().taskId())) {
            return false;
        }
        try (WriterLease lease = leases.acquire(slot)) {
            Optional<RecoveryGuard> again = leases.readGuard(slot);
            return again.isEmpty() || recoverGuard(lease, again.get());
        }
    }

    /** Takes the slot's lease for a new task and lazily reconciles a guard left by an earlier one (§6.2). */
    WriterLease acquireForTask(int slot) {
        WriterLease lease = leases.acquire(slot);
        try {
            Optional<RecoveryGuard> guard = leases.readGuard(slot);
            if (guard.isPresent() && !recoverGuard(lease, guard.get())) {
                throw new ServerFsException(
                        ErrorCode.WORKDIR_RECOVERY_REQUIRED,
                        "workdir slot " + String.format("%02d", slot) + " needs recovery");
            }
            return lease;
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
    }

    private boolean recoverGuard(WriterLease lease, RecoveryGuard guard) {
        if (live.contains(guard.taskId())) {
            return false;
        }
        Optional<Task> task = records.store().find(guard.taskId());
        ProviderState state = provenState(task, Optional.of(guard));
        if (!RecoveryPolicy.mayRemoveGuard(state)) {
            return false;
        }
        if (task.isPresent() && !task.get().isTerminal()) {
            records.terminate(
                    guard.taskId(),
                    t -> t.interrupted(
                            ErrorCode.AGENT_PROVIDER_INACTIVE,
                            "provider is no longer active during recovery",
                            records.now()),
                    t -> TaskRecords.Announcement.error(EventType.TASK_INTERRUPTED, ErrorCode.AGENT_PROVIDER_INACTIVE));
        }
        return lease.removeGuard(guard.taskId());
    }

    private Optional<RecoveryGuard> guardNaming(Task task) {
        if (!task.profile().holdsWriterLease()) {
            return Optional.empty();
        }
        try {
            return leases.readGuard(task.workdirSlot()).filter(g -> g.taskId().equals(task.id()));
        } catch (ServerFsException e) {
            return Optional.empty();
        }
    }

    private ReconcileResult reconcileWithRuntime(Task task, Optional<RecoveryGuard> guard) {
        Optional<AgentRuntime> runtime = runtimes.find(task.runtime());
        if (runtime.isEmpty()) {
            return ReconcileResult.unknown("runtime not configured");
        }
        try {
            return runtime.get().reconcile(task, guard.flatMap(RecoveryGuard::provider));
        } catch (RuntimeException e) {
            return ReconcileResult.unknown("reconcile failed");
        }
    }

    /** Combines the runtime's evidence and the recorded process (CONTRACT.md §3.2). */
    ProviderState provenState(Optional<Task> task, Optional<RecoveryGuard> guard) {
        Optional<ProviderProcess> process = guard.flatMap(RecoveryGuard::provider);
        Optional<ProviderState> processView = process.map(p -> {
            try {
                return leases.providerState(p);
            } catch (RuntimeException e) {
                return ProviderState.UNKNOWN;
            }
        });
        ProviderState runtimeView =
                task.map(t -> reconcileWithRuntime(t, guard).provider()).orElse(ProviderState.UNKNOWN);
        return RecoveryPolicy.combine(runtimeView, processView);
    }

    private static JsonValue providerActive(ProviderState state) {
        Boolean active = state.providerActive();
        return active == null ? JsonValue.JsonNull.INSTANCE : JsonValue.of(active);
    }
}
