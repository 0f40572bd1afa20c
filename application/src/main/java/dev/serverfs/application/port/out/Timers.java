package dev.serverfs.application.port.out;

import java.time.Instant;

/**
 * One-shot timers on the injected clock (v0.7.3 §5: one bounded timer per pending interaction, never a polling
 * loop). Tests drive a manual implementation with a mutable clock.
 */
public interface Timers {

    /** Runs {@code action} once, at or after {@code dueAt} on the clock, unless cancelled first. */
    Timer schedule(Instant dueAt, Runnable action);

    /** A scheduled action. */
    interface Timer {
        /** Cancels the action if it has not started; idempotent. */
        void cancel();
    }
}
