package dev.serverfs.domain.task;

import java.time.Instant;
import java.util.Objects;

/**
 * One stored task event (reference §3.4, §5 {@code events}): a global monotonic id, the normalized event type
 * and its redacted payload as canonical JSON. The correlation id is joined from the task at read time.
 */
public record TaskEvent(long eventId, TaskId taskId, String eventType, String payloadJson, Instant createdAt) {
    public static final int SCHEMA_VERSION = 1;

    public TaskEvent {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(eventType, "eventType");
        Objects.requireNonNull(payloadJson, "payloadJson");
        Objects.requireNonNull(createdAt, "createdAt");
        if (eventId < 1) {
            throw new IllegalArgumentException("eventId must be positive");
        }
    }
}
