package dev.serverfs.application.testing;

import dev.serverfs.application.port.out.Timers;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@link Timers} fired explicitly by the test: {@link #fireDue()} runs, on the caller's thread, what is due. */
public final class ManualTimers implements Timers {
    private final Clock clock;
    private final List<Entry> entries = new ArrayList<>();

    public ManualTimers(Clock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized Timer schedule(Instant dueAt, Runnable action) {
        Entry entry = new Entry(dueAt, action);
        entries.add(entry);
        return entry;
    }

    /** Runs every uncancelled timer due at the clock's current instant; returns how many ran. */
    public int fireDue() {
        List<Entry> due;
        synchronized (this) {
            Instant now = clock.instant();
            due = entries.stream()
                    .filter(e -> !e.cancelled && !e.fired && !e.dueAt.isAfter(now))
                    .toList();
            due.forEach(e -> e.fired = true);
        }
        due.forEach(e -> e.action.run());
        return due.size();
    }

    /** Timers neither fired nor cancelled. */
    public synchronized int active() {
        return (int) entries.stream().filter(e -> !e.cancelled && !e.fired).count();
    }

    /** Due instants of active timers. */
    public synchronized List<Instant> activeDueTimes() {
        return entries.stream()
                .filter(e -> !e.cancelled && !e.fired)
                .map(e -> e.dueAt)
                .toList();
    }

    private static final class Entry implements Timer {
        final Instant dueAt;
        final Runnable action;
        volatile boolean cancelled;
        volatile boolean fired;

        Entry(Instant dueAt, Runnable action) {
            this.dueAt = dueAt;
            this.action = action;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }
}
