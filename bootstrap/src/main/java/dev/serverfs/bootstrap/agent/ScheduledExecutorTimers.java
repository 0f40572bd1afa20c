package dev.serverfs.bootstrap.agent;

import dev.serverfs.application.port.out.Timers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@link Timers} on one scheduler thread; each action runs on its own virtual thread so a bounded provider
 * cancel (up to 10 s) never delays another timer. One timer per pending interaction plus one per task deadline:
 * no polling loop (v0.7.3 §5).
 */
public final class ScheduledExecutorTimers implements Timers, AutoCloseable {
    private final Clock clock;
    private final ScheduledExecutorService scheduler;

    public ScheduledExecutorTimers(Clock clock) {
        this.clock = clock;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("serverfs-agent-timers").factory());
    }

    @Override
    public Timer schedule(Instant dueAt, Runnable action) {
        long delayMillis = Math.max(0, Duration.between(clock.instant(), dueAt).toMillis());
        ScheduledFuture<?> future = scheduler.schedule(
                () -> Thread.ofVirtual().name("serverfs-agent-timer").start(action),
                delayMillis,
                TimeUnit.MILLISECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
