package dev.serverfs.adapters.mcp;

/**
 * One running request that a cancellation may stop: the session era's {@code notifications/cancelled} ({@link
 * InFlightCalls}) or, in the stateless era, its client's close ({@link Disconnects}). A cancellation interrupts the
 * request's thread under the call's lock, so no interrupt can land after the call has {@linkplain #close ended}; an
 * end that finds its call cancelled clears the flag it may have left.
 */
abstract class CancellableCall implements AutoCloseable {
    private final Thread thread;
    private boolean cancelled;
    private boolean ended;

    CancellableCall(Thread thread) {
        this.thread = thread;
    }

    /** Interrupts the call's thread, unless it has ended or was cancelled already. */
    final synchronized void cancel() {
        if (live()) {
            cancelled = true;
            thread.interrupt();
        }
    }

    /** Whether a cancellation stopped the call; the caller then sends nothing more for it. */
    final synchronized boolean cancelled() {
        return cancelled;
    }

    /** Neither ended nor cancelled (under the call's lock, so a subclass can act on it before the end). */
    final synchronized boolean live() {
        return !ended && !cancelled;
    }

    /** Forgets the call wherever it was registered; runs once, after no cancellation can reach it any more. */
    abstract void unregister();

    /** Ends the call: from now on no cancellation reaches its thread. */
    @Override
    public final void close() {
        boolean wasCancelled;
        synchronized (this) {
            ended = true;
            wasCancelled = cancelled;
        }
        unregister();
        if (wasCancelled) {
            // The work may have finished before it saw the interrupt: what follows must not see it either.
            Thread.interrupted();
        }
    }
}
