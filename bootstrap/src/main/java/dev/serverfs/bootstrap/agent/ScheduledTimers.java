package dev.serverfs.bootstrap.agent;

import dev.serverfs.application.port.out.Timers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** {@link Timers} on one scheduler thread; each action runs on a virtual thread so a slow action delays no other. */
final class ScheduledTimers implements Timers, AutoCloseable {
    private final Clock clock;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "serverfs-agent-timers");
        t.setDaemon(true);
        return t;
    });

    ScheduledTimers(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Timer schedule(Instant dueAt, Runnable action) {
        long delay = Math.max(0, Duration.between(clock.instant(), dueAt).toMillis());
        ScheduledFuture<?> future =
                scheduler.schedule(() -> Thread.ofVirtual().start(action), delay, TimeUnit.MILLISECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
