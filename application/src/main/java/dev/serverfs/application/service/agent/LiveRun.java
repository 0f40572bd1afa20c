package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.HeldDirectory;
import dev.serverfs.application.port.out.Timers;
import dev.serverfs.application.port.out.WriterLeases.WriterLease;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.workdir.Workdir;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/** In-process state of one task whose runner has not finished its cleanup. */
final class LiveRun {
    final TaskId id;
    final Workdir workdir;
    final AgentRuntime runtime;
    /** The slot's writer lease (workspace-write), released only by the runner's cleanup; null for review tasks. */
    final WriterLease lease;
    /** Where the provider child starts; held until the runner's cleanup. */
    final HeldDirectory directory;

    final AtomicBoolean cancelRequested = new AtomicBoolean();
    final AtomicBoolean providerCancelAttempted = new AtomicBoolean();
    final CountDownLatch drained = new CountDownLatch(1);

    volatile PendingInteraction<?> pending;
    volatile Timers.Timer deadlineTimer;
    volatile RecoveryGuard guard;

    /** The runner while it is inside the provider turn; guarded by this run's monitor. */
    private Thread turnThread;
    /** A stop was requested; guarded by this run's monitor. */
    private boolean stopRequested;

    LiveRun(Task task, Workdir workdir, AgentRuntime runtime, WriterLease lease, HeldDirectory directory) {
        this.id = task.id();
        this.workdir = workdir;
        this.runtime = runtime;
        this.lease = lease;
        this.directory = directory;
    }

    /** The workdir root as the provider prints it (no trailing slash), for redaction. */
    String hostRoot() {
        String root = workdir.root().toString();
        return root.endsWith("/") && root.length() > 1 ? root.substring(0, root.length() - 1) : root;
    }

    /**
     * The runner enters the provider turn: from here a stop interrupts it (AgentRuntime: an interrupt asks the turn
     * to stop). A stop requested just before is delivered at once.
     */
    synchronized void enterTurn() {
        turnThread = Thread.currentThread();
        if (stopRequested) {
            turnThread.interrupt();
        }
    }

    /**
     * The turn is over: later stops no longer interrupt the runner, and a pending interrupt is cleared, so the
     * bookkeeping after it (spool, guard files) never fails with ClosedByInterruptException.
     */
    synchronized void leaveTurn() {
        turnThread = null;
        Thread.interrupted();
    }

    /** Interrupts the turn if the runner is inside it; a turn that starts later is interrupted as it starts. */
    synchronized void requestStop() {
        stopRequested = true;
        if (turnThread != null) {
            turnThread.interrupt();
        }
    }
}
