package dev.serverfs.adapters.fs;

import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs searches and walks, which are CPU-bound (ignore rules, scanning, policy checks), on platform threads of their
 * own, at most {@code slots} at a time, never on the caller's virtual thread: a virtual thread that computes for
 * seconds holds its carrier, and with every carrier held no other tool call runs (issue 24 §1). Work beyond the
 * slots waits in a queue of at most {@code maxWaiting} (a deadline, when given, counts the wait); past that it is
 * refused at once. The caller's thread only parks.
 */
final class SearchSlots implements AutoCloseable {

    /** How long a search still running at its deadline gets to notice it (the reference's 2 s grace). */
    static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final ThreadPoolExecutor pool;
    private final int slots;

    /** {@code slots} threads named {@code name-1}, {@code name-2}, …, and a queue of {@code maxWaiting}. */
    SearchSlots(String name, int slots, int maxWaiting) {
        this.slots = slots;
        AtomicInteger ids = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(
                slots, slots, 0, TimeUnit.NANOSECONDS, new ArrayBlockingQueue<>(maxWaiting), r -> {
                    Thread t = new Thread(r, name + "-" + ids.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /** How many pieces of work run at once. */
    int slots() {
        return slots;
    }

    /** How many pieces of work hold a slot right now (for the metrics). */
    int running() {
        return pool.getActiveCount();
    }

    /** How many pieces of work wait for a slot right now. */
    int waiting() {
        return pool.getQueue().size();
    }

    /** Work that runs only if it claims itself before its caller gives up on it. */
    private static final class Job<T> extends FutureTask<T> {
        private final AtomicBoolean claimed = new AtomicBoolean();

        Job(Callable<T> work) {
            super(work);
        }

        @Override
        public void run() {
            if (claimed.compareAndSet(false, true)) {
                super.run();
            }
        }

        /** Takes the job back from the queue; false when it has already started. */
        boolean withdraw() {
            return claimed.compareAndSet(false, true);
        }
    }

    /**
     * Runs {@code work} on a slot and returns its result, or empty when there was none by {@code deadline} (a
     * {@link System#nanoTime} value): either the work never got a slot (it is withdrawn and never runs), or it ran
     * past the deadline plus {@link #GRACE_NANOS}; {@code stop} is called at the deadline so running work ends at
     * its next check. Work must own every resource it uses: work that overruns finishes on its own after this
     * returns.
     *
     * @throws RejectedExecutionException when {@code maxWaiting} callers are already waiting
     */
    <T> Optional<T> run(Callable<T> work, long deadline, Runnable stop) {
        Job<T> job = new Job<>(work);
        pool.execute(job);
        try {
            try {
                return Optional.of(job.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (TimeoutException e) {
                if (job.withdraw()) {
                    pool.remove(job);
                    return Optional.empty();
                }
                stop.run();
            }
            try {
                return Optional.of(job.get(GRACE_NANOS, TimeUnit.NANOSECONDS));
            } catch (TimeoutException e) {
                return Optional.empty();
            }
        } catch (InterruptedException e) {
            stop.run();
            job.withdraw();
            pool.remove(job);
            Thread.currentThread().interrupt();
            throw cancelled(e);
        } catch (ExecutionException e) {
            throw unwrap(e);
        }
    }

    /**
     * Runs {@code work} on a slot and waits for it however long it takes: for work bounded by other means (a
     * {@code find_files} walk stops after {@code SERVERFS_MAX_WALK_ENTRIES} entries).
     *
     * @throws RejectedExecutionException when {@code maxWaiting} callers are already waiting
     */
    <T> T runToEnd(Callable<T> work) {
        Job<T> job = new Job<>(work);
        pool.execute(job);
        try {
            return job.get();
        } catch (InterruptedException e) {
            job.withdraw();
            pool.remove(job);
            Thread.currentThread().interrupt();
            throw cancelled(e);
        } catch (ExecutionException e) {
            throw unwrap(e);
        }
    }

    /** The caller was interrupted while it waited: its request was cancelled (the MCP adapter's in-flight calls). */
    private static CancellationException cancelled(InterruptedException e) {
        CancellationException cancelled = new CancellationException("cancelled while waiting for a search slot");
        cancelled.initCause(e);
        return cancelled;
    }

    private static RuntimeException unwrap(ExecutionException e) {
        if (e.getCause() instanceof RuntimeException r) {
            return r;
        }
        if (e.getCause() instanceof Error err) {
            throw err;
        }
        return new IllegalStateException(e.getCause());
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
