package dev.serverfs.application.service;

import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.application.port.out.WriterLeases.WriterLease;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.PathFailure;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The shared gate of every mutation (contract reference §2.8), in the reference's order: workdir exists →
 * read-write ({@code WORKDIR_READ_ONLY}, before path policy) → path policy → not the root ({@code
 * ROOT_MUTATION_NOT_ALLOWED}) → one process-wide mutation lock (reads never take it) → the slot's writer lease
 * when Agent delegation is configured ({@code WORKDIR_BUSY}, {@code WORKDIR_RECOVERY_REQUIRED}, {@code
 * AGENT_LOCK_UNAVAILABLE}), released after the mutation. One instance per process, shared by all mutation services.
 * When the Agent service runs in this process, a guard met by a mutation is first reconciled lazily through {@link
 * SlotRecovery} (removed only with proof that its provider stopped) and the lease is tried once more.
 */
public final class MutationGate {

    /** A checked mutation target: the workdir, the normalised non-root path and its {@code <workdir>:<path>} label. */
    public record Target(Workdir workdir, WorkdirPath path, String label) {}

    private final Workdirs workdirs;
    private final Optional<WriterLeases> leases;
    private final SlotRecovery recovery;
    private final ReentrantLock lock = new ReentrantLock(true);

    /** {@code leases} present exactly when Agent delegation is configured ({@code SERVERFS_AGENT_BRIDGE_ENABLED}). */
    public MutationGate(Workdirs workdirs, Optional<WriterLeases> leases) {
        this(workdirs, leases, SlotRecovery.NONE);
    }

    /**
     * {@code recovery} is the embedded Agent service's lazy guard reconciliation ({@link SlotRecovery#NONE} when the
     * Agent service runs elsewhere or not at all).
     */
    public MutationGate(Workdirs workdirs, Optional<WriterLeases> leases, SlotRecovery recovery) {
        this.workdirs = Objects.requireNonNull(workdirs, "workdirs");
        this.leases = Objects.requireNonNull(leases, "leases");
        this.recovery = Objects.requireNonNull(recovery, "recovery");
    }

    public Workdirs workdirs() {
        return workdirs;
    }

    /** The checks before the lock: workdir, read-write, path policy, root. */
    public Target target(String alias, String rawPath) {
        return target(alias, rawPath, (workdir, raw) -> {});
    }

    /**
     * The same checks with a tool-specific one between read-write and path policy (upload's {@code
     * BINARY_TRANSFER_DISABLED}, reference §2.15); {@code afterReadWrite} gets the workdir and the raw path.
     */
    public Target target(String alias, String rawPath, BiConsumer<Workdir, String> afterReadWrite) {
        Workdir workdir = workdirs.require(alias);
        String raw = rawPath == null ? "" : rawPath;
        if (!workdir.readWrite()) {
            throw PathFailure.of(
                    ErrorCode.WORKDIR_READ_ONLY,
                    workdir.alias().value(),
                    raw,
                    workdir.alias().value() + " is configured read-only; mutations are not allowed");
        }
        afterReadWrite.accept(workdir, raw);
        WorkdirPath path = PathPolicy.of(workdir).resolve(raw);
        if (path.isRoot()) {
            throw PathFailure.of(
                    ErrorCode.ROOT_MUTATION_NOT_ALLOWED,
                    workdir.alias().value(),
                    raw,
                    "the workdir root itself cannot be created, replaced or deleted");
        }
        return new Target(workdir, path, PathFailure.label(workdir.alias().value(), raw));
    }

    /**
     * Runs {@code mutation} under the process-wide lock and, when configured, the slot's writer lease. A recovery
     * guard met on the way is reconciled lazily once (v0.7.2: a proven provider stop clears it), outside the lock so
     * that other workdirs' mutations never wait for a provider's proof of stop, and the lease is tried once more;
     * anything else, including unknown provider state, stays fail-closed.
     */
    public <T> T run(Target target, Supplier<T> mutation) {
        Optional<T> done = locked(target, mutation, true);
        if (done.isPresent()) {
            return done.get();
        }
        return locked(target, mutation, false).orElseThrow();
    }

    /** Empty only when {@code mayRecover} and a guard was met that reconciliation has since cleared. */
    private <T> Optional<T> locked(Target target, Supplier<T> mutation, boolean mayRecover) {
        WriterLease lease = null;
        lock.lock();
        try {
            if (leases.isPresent()) {
                try {
                    lease = leases.get().acquireForMutation(target.workdir().slot());
                } catch (ServerFsException e) {
                    if (!mayRecover || e.code() != ErrorCode.WORKDIR_RECOVERY_REQUIRED) {
                        throw translated(target, e);
                    }
                    lock.unlock();
                    try {
                        if (reconciled(target.workdir().slot())) {
                            return Optional.empty();
                        }
                    } finally {
                        lock.lock();
                    }
                    throw translated(target, e);
                }
            }
            try (WriterLease _ = lease) {
                return Optional.of(mutation.get());
            }
        } finally {
            lock.unlock();
        }
    }

    private boolean reconciled(int slot) {
        try {
            return recovery.reconcileSlot(slot);
        } catch (ServerFsException e) {
            // busy or unreadable while reconciling: the slot stays fail-closed
            return false;
        }
    }

    /** The lease's own codes, with the reference's per-workdir messages (§2.8). */
    private static ServerFsException translated(Target target, ServerFsException e) {
        String alias = target.workdir().alias().value();
        String message = switch (e.code()) {
            case WORKDIR_BUSY -> alias + " has an active Agent writer";
            case WORKDIR_RECOVERY_REQUIRED ->
                alias + " needs Agent recovery before it can be changed (a recovery guard is present)";
            default -> "shared Agent lease for " + alias + " is unavailable";
        };
        ErrorCode code = e.code() == ErrorCode.WORKDIR_BUSY || e.code() == ErrorCode.WORKDIR_RECOVERY_REQUIRED
                ? e.code()
                : ErrorCode.AGENT_LOCK_UNAVAILABLE;
        return new ServerFsException(code, target.label(), message);
    }
}
