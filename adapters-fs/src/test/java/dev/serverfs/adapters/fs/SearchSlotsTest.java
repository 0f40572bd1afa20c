package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Issue 24 §1: bounded search concurrency, the wait for a slot inside the deadline, refusal when the queue is full. */
class SearchSlotsTest {

    private static final long LONG = TimeUnit.MINUTES.toNanos(1);

    private final SearchSlots slots = new SearchSlots("test-slot", 1, 1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch holding = new CountDownLatch(1);
    private Thread holder;

    @AfterEach
    void close() throws InterruptedException {
        release.countDown();
        if (holder != null) {
            holder.join(10_000);
        }
        slots.close();
    }

    /** Occupies the only slot until {@link #release}, from another thread. */
    private void holdTheSlot() throws InterruptedException {
        holder = Thread.ofPlatform()
                .start(() -> slots.run(
                        () -> {
                            holding.countDown();
                            return release.await(1, TimeUnit.MINUTES);
                        },
                        System.nanoTime() + LONG,
                        () -> {}));
        assertTrue(holding.await(10, TimeUnit.SECONDS));
    }

    private static long in(long millis) {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void a_search_that_waits_past_its_deadline_ends_then_and_never_runs() throws Exception {
        holdTheSlot();
        AtomicBoolean ran = new AtomicBoolean();
        long started = System.nanoTime();
        Optional<String> waited = slots.run(
                () -> {
                    ran.set(true);
                    return "ran";
                },
                in(200),
                () -> {});
        assertEquals(Optional.empty(), waited);
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(5), "ended at its deadline");
        assertEquals(0, slots.waiting(), "withdrawn from the queue");
        assertEquals(1, slots.running(), "the held slot is counted as running");
        release.countDown();
        // The slot is free again and runs the next search; the withdrawn one never ran.
        assertEquals(Optional.of("next"), slots.run(() -> "next", System.nanoTime() + LONG, () -> {}));
        assertFalse(ran.get());
    }

    @Test
    void work_still_running_at_its_deadline_is_told_to_stop_and_its_result_kept() {
        AtomicBoolean stop = new AtomicBoolean();
        Optional<String> result = slots.run(
                () -> {
                    long bound = System.nanoTime() + LONG;
                    while (!stop.get() && System.nanoTime() < bound) {
                        Thread.onSpinWait();
                    }
                    return stop.get() ? "stopped" : "not told";
                },
                // Long enough that the work surely holds the slot before it (a loaded machine took > 100 ms).
                in(1_000),
                () -> stop.set(true));
        assertEquals(Optional.of("stopped"), result);
    }

    @Test
    void a_full_queue_refuses_at_once() throws Exception {
        holdTheSlot();
        Thread waiter = Thread.ofPlatform().start(() -> slots.run(() -> "queued", System.nanoTime() + LONG, () -> {}));
        long bound = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (slots.waiting() == 0 && System.nanoTime() < bound) {
            Thread.onSpinWait();
        }
        assertEquals(1, slots.waiting());
        assertThrows(
                RejectedExecutionException.class, () -> slots.run(() -> "refused", System.nanoTime() + LONG, () -> {}));
        release.countDown();
        waiter.join(10_000);
        assertFalse(waiter.isAlive());
    }

    @Test
    void a_failure_of_the_work_reaches_the_caller_as_it_is() {
        ServerFsException failure = new ServerFsException(ErrorCode.PATH_NOT_FOUND, "wd:x", "path not found");
        ServerFsException thrown = assertThrows(
                ServerFsException.class,
                () -> slots.run(
                        () -> {
                            throw failure;
                        },
                        System.nanoTime() + LONG,
                        () -> {}));
        assertSame(failure, thrown);
    }

    @Test
    void work_runs_on_a_platform_thread_of_its_own() {
        Optional<Boolean> virtual =
                slots.run(() -> Thread.currentThread().isVirtual(), System.nanoTime() + LONG, () -> {});
        assertEquals(Optional.of(false), virtual);
    }
}
