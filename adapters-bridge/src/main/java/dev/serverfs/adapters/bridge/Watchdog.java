package dev.serverfs.adapters.bridge;

import java.io.IOException;
import java.nio.channels.Channel;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Deadlines for blocking socket I/O: AF_UNIX channels have no read timeout, so a deadline closes the channel, which
 * ends a blocked read or write with an {@code AsynchronousCloseException}. One daemon timer thread for the process.
 */
final class Watchdog {
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("serverfs-bridge-deadlines").factory());

    private Watchdog() {}

    /** Closes {@code channel} after {@code timeout} unless the returned future is cancelled first. */
    static ScheduledFuture<?> closeAfter(Channel channel, Duration timeout) {
        return TIMER.schedule(() -> closeQuietly(channel), timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    static void closeQuietly(Channel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // Closing is the end of this channel either way.
        }
    }
}
