package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.StoredManifest;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskFailure;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskResult;
import dev.serverfs.domain.task.TaskStatus;
import dev.serverfs.domain.workdir.WorkdirAlias;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code get_agent_task} / {@code task.get} show of a task (reference §3.3): its record without native ids,
 * fingerprint or event count, and the pending request when one waits. Obeys the task's state-dependent data rules
 * ({@link Task#requireStateData}); {@link #of} is the one way the application builds it from a task.
 */
public record TaskView(
        TaskId taskId,
        RuntimeName runtime,
        WorkdirAlias workdirAlias,
        int workdirSlot,
        String relativeCwd,
        TaskProfile profile,
        TaskStatus status,
        Instant createdAt,
        Optional<Instant> startedAt,
        Instant updatedAt,
        Optional<Instant> completedAt,
        Instant deadlineAt,
        Optional<TaskId> continueFromTaskId,
        Optional<CorrelationId> correlationId,
        Optional<IdempotencyKey> idempotencyKey,
        Optional<TaskResult> result,
        StoredManifest manifest,
        Optional<TaskFailure> failure,
        Optional<RequestId> pendingRequestId,
        Optional<PendingRequest> pendingRequest) {

    public TaskView {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(workdirAlias, "workdirAlias");
        Objects.requireNonNull(relativeCwd, "relativeCwd");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        Objects.requireNonNull(completedAt, "completedAt");
        Objects.requireNonNull(deadlineAt, "deadlineAt");
        Objects.requireNonNull(continueFromTaskId, "continueFromTaskId");
        Objects.requireNonNull(correlationId, "correlationId");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(manifest, "manifest");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(pendingRequestId, "pendingRequestId");
        Objects.requireNonNull(pendingRequest, "pendingRequest");
        if (workdirSlot < 1 || workdirSlot > 16) {
            throw new IllegalArgumentException("workdirSlot must be 1..16");
        }
        Task.requireStateData(status, startedAt, completedAt, result, failure, pendingRequestId);
    }

    /** The view of a stored task and its pending request, if one was found. */
    public static TaskView of(Task task, Optional<PendingRequest> pendingRequest) {
        return new TaskView(
                task.id(),
                task.runtime(),
                task.workdirAlias(),
                task.workdirSlot(),
                task.relativeCwd(),
                task.profile(),
                task.status(),
                task.createdAt(),
                task.startedAt(),
                task.updatedAt(),
                task.completedAt(),
                task.deadlineAt(),
                task.continueFromTaskId(),
                task.correlationId(),
                task.idempotencyKey(),
                task.result(),
                task.manifest(),
                task.failure(),
                task.pendingRequestId(),
                pendingRequest);
    }
}
