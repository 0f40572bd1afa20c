package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskStatus;
import java.util.Objects;
import java.util.Optional;

/**
 * What submit answers about the task it created or replayed (reference §3.2: {@code task_id}, {@code status},
 * {@code correlation_id}, {@code idempotency_key}), plus the task's starting directory and profile, which the
 * caller's audit event records and the answer leaves out.
 */
public record TaskHandle(
        TaskId taskId,
        TaskStatus status,
        Optional<CorrelationId> correlationId,
        Optional<IdempotencyKey> idempotencyKey,
        String relativeCwd,
        TaskProfile profile) {

    public TaskHandle {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(correlationId, "correlationId");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        Objects.requireNonNull(relativeCwd, "relativeCwd");
        Objects.requireNonNull(profile, "profile");
    }

    /** The handle of a stored task, as it is now. */
    public static TaskHandle of(Task task) {
        return new TaskHandle(
                task.id(),
                task.status(),
                task.correlationId(),
                task.idempotencyKey(),
                task.relativeCwd(),
                task.profile());
    }
}
