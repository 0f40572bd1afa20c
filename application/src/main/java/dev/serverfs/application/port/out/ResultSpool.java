package dev.serverfs.application.port.out;

import dev.serverfs.domain.task.TaskId;

/**
 * Spooled final responses, one file per task (reference §3.16): written atomically and create-only; any
 * failure, including an existing target, is {@code AGENT_RESULT_STORAGE_ERROR}.
 */
public interface ResultSpool {

    /** Atomically stores the whole UTF-8 text of the task's result; never overwrites. */
    void write(TaskId id, byte[] utf8);

    /** Up to {@code maxBytes} bytes starting at {@code offset} (fewer at the end; empty at or past the end). */
    byte[] read(TaskId id, long offset, int maxBytes);

    /** Removes the task's result if present (GC); idempotent. */
    void delete(TaskId id);
}
