package dev.serverfs.application.testing;

import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.TaskId;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link WriterLeases} in memory with the flock semantics (one holder per slot, never queued) and guard files as
 * map entries. Process liveness is set by the test ({@link #setProcessState}); unknown processes are UNKNOWN.
 */
public final class InMemoryWriterLeases implements WriterLeases {
    private final Lease[] holders = new Lease[17];
    private final Map<Integer, RecoveryGuard> guards = new HashMap<>();
    private final Map<Long, ProviderState> processes = new HashMap<>();
    public final AtomicInteger acquisitions = new AtomicInteger();
    public final AtomicInteger guardPublications = new AtomicInteger();

    @Override
    public synchronized WriterLease acquire(int slot) {
        check(slot);
        if (holders[slot] != null) {
            throw new ServerFsException(ErrorCode.WORKDIR_BUSY, "workdir slot " + slot + " is busy");
        }
        Lease lease = new Lease(slot);
        holders[slot] = lease;
        acquisitions.incrementAndGet();
        return lease;
    }

    @Override
    public synchronized WriterLease acquireForMutation(int slot) {
        WriterLease lease = acquire(slot);
        if (guards.containsKey(slot)) {
            lease.close();
            throw new ServerFsException(ErrorCode.WORKDIR_RECOVERY_REQUIRED, "workdir needs recovery");
        }
        return lease;
    }

    @Override
    public synchronized Optional<RecoveryGuard> readGuard(int slot) {
        check(slot);
        return Optional.ofNullable(guards.get(slot));
    }

    @Override
    public synchronized ProviderState providerState(ProviderProcess process) {
        return processes.getOrDefault(process.pid(), ProviderState.UNKNOWN);
    }

    public synchronized void setProcessState(long pid, ProviderState state) {
        processes.put(pid, state);
    }

    public synchronized boolean isHeld(int slot) {
        return holders[slot] != null;
    }

    /** Simulates a crashed holder: the flock vanishes with the process, the guard stays. */
    public synchronized void crash() {
        for (Lease lease : holders) {
            if (lease != null) {
                lease.open = false;
            }
        }
        java.util.Arrays.fill(holders, null);
    }

    private static void check(int slot) {
        if (slot < 1 || slot > 16) {
            throw new ServerFsException(ErrorCode.INVALID_WORKDIR_SLOT, "slot must be 1..16");
        }
    }

    private final class Lease implements WriterLease {
        private final int slot;
        private boolean open = true;

        Lease(int slot) {
            this.slot = slot;
        }

        @Override
        public int slot() {
            return slot;
        }

        @Override
        public void publishGuard(RecoveryGuard guard) {
            synchronized (InMemoryWriterLeases.this) {
                requireOpen();
                if (guards.containsKey(slot)) {
                    throw new ServerFsException(ErrorCode.WORKDIR_RECOVERY_REQUIRED, "a guard already exists");
                }
                guards.put(slot, guard);
                guardPublications.incrementAndGet();
            }
        }

        @Override
        public void replaceGuard(RecoveryGuard guard) {
            synchronized (InMemoryWriterLeases.this) {
                requireOpen();
                RecoveryGuard current = guards.get(slot);
                if (current == null || !current.taskId().equals(guard.taskId())) {
                    throw new ServerFsException(ErrorCode.WORKDIR_RECOVERY_REQUIRED, "guard names another task");
                }
                guards.put(slot, guard);
            }
        }

        @Override
        public boolean removeGuard(TaskId taskId) {
            synchronized (InMemoryWriterLeases.this) {
                requireOpen();
                RecoveryGuard current = guards.get(slot);
                if (current == null || !current.taskId().equals(taskId)) {
                    return false;
                }
                guards.remove(slot);
                return true;
            }
        }

        @Override
        public void close() {
            synchronized (InMemoryWriterLeases.this) {
                if (open) {
                    open = false;
                    if (holders[slot] == this) {
                        holders[slot] = null;
                    }
                }
            }
        }

        private void requireOpen() {
            if (!open) {
                throw new IllegalStateException("lease released");
            }
        }
    }
}
