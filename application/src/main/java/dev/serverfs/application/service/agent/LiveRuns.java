package dev.serverfs.application.service.agent;

import dev.serverfs.domain.task.TaskId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** The one holder of the tasks whose runner has not finished its cleanup in this process. Thread-safe. */
public final class LiveRuns {
    private final Map<TaskId, LiveRun> runs = new ConcurrentHashMap<>();

    void add(LiveRun run) {
        runs.put(run.id, run);
    }

    /** The run leaves the holder; its {@code drained} latch is the caller's to count down. */
    void remove(TaskId id) {
        runs.remove(id);
    }

    Optional<LiveRun> find(TaskId id) {
        return Optional.ofNullable(runs.get(id));
    }

    boolean contains(TaskId id) {
        return runs.containsKey(id);
    }

    List<LiveRun> snapshot() {
        return List.copyOf(runs.values());
    }

    /** Waits until the task's runner finished its cleanup; true if it did within the timeout (or was not live). */
    boolean awaitDrained(TaskId id, Duration timeout) throws InterruptedException {
        LiveRun run = runs.get(id);
        return run == null || run.drained.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
