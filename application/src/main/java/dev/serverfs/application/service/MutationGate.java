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
import java.util.function.Supplier;

/**
 * The shared gate of every mutation (contract reference §2.8), in the reference's order: workdir exists →
 * read-write ({@code WORKDIR_READ_ONLY}, before path policy) → path policy → not the root ({@code
 * ROOT_MUTATION_NOT_ALLOWED}) → one process-wide mutation lock (reads never take it) → the slot's writer lease
 * when Agent delegation is configured ({@code WORKDIR_BUSY}, {@code WORKDIR_RECOVERY_REQUIRED}, {@code
 * AGENT_LOCK_UNAVAILABLE}), released after the mutation. One instance per process, shared by all mutation services.
 */
public final class MutationGate {

    /** A checked mutation target: the workdir, the normalised non-root path and its {@code <workdir>:<path>} label. */
    public record Target(Workdir workdir, WorkdirPath path, String label) {}

    private final Workdirs workdirs;
    private final Optional<WriterLeases> leases;
    private final ReentrantLock lock = new ReentrantLock(true);

    /** {@code leases} present exactly when Agent delegation is configured ({@code SERVERFS_AGENT_BRIDGE_ENABLED}). */
    public MutationGate(Workdirs workdirs, Optional<WriterLeases> leases) {
        this.workdirs = Objects.requireNonNull(workdirs, "workdirs");
        this.leases = Objects.requireNonNull(leases, "leases");
    }

    public Workdirs workdirs() {
        return workdirs;
    }

    /** The checks before the lock: workdir, read-write, path policy, root. */
    public Target target(String alias, String rawPath) {
        Workdir workdir = workdirs.require(alias);
        String raw = rawPath == null ? "" : rawPath;
        if (!workdir.readWrite()) {
            throw PathFailure.of(
                    ErrorCode.WORKDIR_READ_ONLY,
                    workdir.alias().value(),
                    raw,
                    workdir.alias().value() + " is configured read-only; mutations are not allowed");
        }
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

    /** Runs {@code mutation} under the process-wide lock and, when configured, the slot's writer lease. */
    public <T> T run(Target target, Supplier<T> mutation) {
        lock.lock();
        try {
            if (leases.isEmpty()) {
                return mutation.get();
            }
            try (WriterLease lease = acquireLease(target)) {
                return mutation.get();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The lease's own codes, with the reference's per-workdir messages (§2.8). */
    private WriterLease acquireLease(Target target) {
        String alias = target.workdir().alias().value();
        try {
            return leases.get().acquireForMutation(target.workdir().slot());
        } catch (ServerFsException e) {
            String message = switch (e.code()) {
                case WORKDIR_BUSY -> alias + " has an active Agent writer";
                case WORKDIR_RECOVERY_REQUIRED ->
                    alias + " needs Agent recovery before it can be changed (a recovery guard is present)";
                default -> "shared Agent lease for " + alias + " is unavailable";
            };
            ErrorCode code = e.code() == ErrorCode.WORKDIR_BUSY || e.code() == ErrorCode.WORKDIR_RECOVERY_REQUIRED
                    ? e.code()
                    : ErrorCode.AGENT_LOCK_UNAVAILABLE;
            throw new ServerFsException(code, target.label() + " — " + message);
        }
    }
}
