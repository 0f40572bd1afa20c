package dev.serverfs.domain.task;

/**
 * The provider child process of a task: its pid and its start time in clock ticks since boot (field 22 of
 * {@code /proc/<pid>/stat}), so a reused pid is told apart (CONTRACT.md §3.2).
 */
public record ProviderProcess(long pid, long startTime) {
    public ProviderProcess {
        if (pid < 1) {
            throw new IllegalArgumentException("pid must be positive");
        }
        if (startTime < 0) {
            throw new IllegalArgumentException("startTime must not be negative");
        }
    }
}
