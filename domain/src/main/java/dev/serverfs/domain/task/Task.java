package dev.serverfs.domain.task;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.WorkdirAlias;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One Agent task: one provider turn with one terminal result (reference §3.11, §5 {@code tasks}). Immutable;
 * every transition method takes {@code now}, checks the frozen table ({@code INVALID_TASK_TRANSITION}) and
 * returns a new task. State-dependent data is validated here: a pending request id exists exactly while
 * waiting, {@code completed_at} exactly when terminal, a result only when succeeded, a failure exactly when
 * failed or interrupted.
 *
 * <p>{@code eventCount} is owned by the task store's event append; the other columns are written by the
 * application through the store's atomic update.
 */
public record Task(
        TaskId id,
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
        Optional<String> requestFingerprint,
        NativeIds nativeIds,
        Optional<TaskResult> result,
        StoredManifest manifest,
        Optional<TaskFailure> failure,
        Optional<RequestId> pendingRequestId,
        int eventCount) {

    public Task {
        Objects.requireNonNull(id, "id");
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
        Objects.requireNonNull(requestFingerprint, "requestFingerprint");
        Objects.requireNonNull(nativeIds, "nativeIds");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(manifest, "manifest");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(pendingRequestId, "pendingRequestId");
        if (workdirSlot < 1 || workdirSlot > 16) {
            throw new IllegalArgumentException("workdirSlot must be 1..16");
        }
        if (eventCount < 0) {
            throw new IllegalArgumentException("eventCount must not be negative");
        }
        if (idempotencyKey.isPresent() != requestFingerprint.isPresent()) {
            throw new IllegalArgumentException("an idempotency key and its fingerprint come together");
        }
        requireStateData(status, startedAt, completedAt, result, failure, pendingRequestId);
    }

    /**
     * The state-dependent data rules a task and every view of one obey: {@code completed_at} exactly when terminal,
     * a pending request id exactly while waiting, a result only when succeeded, a failure exactly when failed or
     * interrupted, no {@code started_at} while queued; {@code IllegalArgumentException} otherwise.
     */
    public static void requireStateData(
            TaskStatus status,
            Optional<Instant> startedAt,
            Optional<Instant> completedAt,
            Optional<TaskResult> result,
            Optional<TaskFailure> failure,
            Optional<RequestId> pendingRequestId) {
        if (completedAt.isPresent() != status.isTerminal()) {
            throw new IllegalArgumentException("completedAt is set exactly when the task is terminal");
        }
        if (pendingRequestId.isPresent() != status.isWaiting()) {
            throw new IllegalArgumentException("a pending request exists exactly while waiting");
        }
        if (result.isPresent() != (status == TaskStatus.SUCCEEDED)) {
            throw new IllegalArgumentException("a result exists exactly when succeeded");
        }
        boolean failedOrInterrupted = status == TaskStatus.FAILED || status == TaskStatus.INTERRUPTED;
        if (failure.isPresent() != failedOrInterrupted) {
            throw new IllegalArgumentException("a failure exists exactly when failed or interrupted");
        }
        if (status == TaskStatus.QUEUED && startedAt.isPresent()) {
            throw new IllegalArgumentException("a queued task has not started");
        }
    }

    /** A new task in {@code queued}, as inserted by submit. */
    public static Task queued(
            TaskId id,
            RuntimeName runtime,
            WorkdirAlias workdirAlias,
            int workdirSlot,
            String relativeCwd,
            TaskProfile profile,
            Instant now,
            Instant deadlineAt,
            Optional<TaskId> continueFromTaskId,
            Optional<CorrelationId> correlationId,
            Optional<IdempotencyKey> idempotencyKey,
            Optional<String> requestFingerprint,
            StoredManifest manifest) {
        return new Task(
                id,
                runtime,
                workdirAlias,
                workdirSlot,
                relativeCwd,
                profile,
                TaskStatus.QUEUED,
                now,
                Optional.empty(),
                now,
                Optional.empty(),
                deadlineAt,
                continueFromTaskId,
                correlationId,
                idempotencyKey,
                requestFingerprint,
                NativeIds.NONE,
                Optional.empty(),
                manifest,
                Optional.empty(),
                Optional.empty(),
                0);
    }

    public boolean isTerminal() {
        return status.isTerminal();
    }

    /** {@code queued -> starting}; records {@code started_at}. */
    public Task starting(Instant now) {
        status.requireMoveTo(TaskStatus.STARTING);
        return copy(now).status(TaskStatus.STARTING).startedAt(Optional.of(now)).build();
    }

    /** {@code starting -> running}. */
    public Task running(Instant now) {
        if (status != TaskStatus.STARTING) {
            throw invalid(TaskStatus.RUNNING);
        }
        return copy(now).status(TaskStatus.RUNNING).build();
    }

    /** {@code running -> waiting_for_approval|waiting_for_question} for the given pending request. */
    public Task awaiting(InteractionKind kind, RequestId requestId, Instant now) {
        TaskStatus next = switch (kind) {
            case APPROVAL -> TaskStatus.WAITING_FOR_APPROVAL;
            case QUESTION -> TaskStatus.WAITING_FOR_QUESTION;
        };
        status.requireMoveTo(next);
        return copy(now).status(next).pendingRequestId(Optional.of(requestId)).build();
    }

    /** {@code waiting_* -> running}: the pending request was resolved or abandoned. */
    public Task resumed(Instant now) {
        if (!status.isWaiting()) {
            throw invalid(TaskStatus.RUNNING);
        }
        return copy(now)
                .status(TaskStatus.RUNNING)
                .pendingRequestId(Optional.empty())
                .build();
    }

    /** {@code running -> succeeded} with the stored result. */
    public Task succeeded(TaskResult taskResult, Instant now) {
        Objects.requireNonNull(taskResult, "taskResult");
        return terminal(TaskStatus.SUCCEEDED, Optional.of(taskResult), Optional.empty(), now);
    }

    /** {@code starting|running -> failed} with the error code stored on the task. */
    public Task failed(ErrorCode code, String message, Instant now) {
        return terminal(TaskStatus.FAILED, Optional.empty(), Optional.of(new TaskFailure(code, message)), now);
    }

    /** Any non-terminal state {@code -> interrupted} with the reason code (timeouts, restart, shutdown...). */
    public Task interrupted(ErrorCode code, String message, Instant now) {
        return terminal(TaskStatus.INTERRUPTED, Optional.empty(), Optional.of(new TaskFailure(code, message)), now);
    }

    /** Any non-terminal state {@code -> cancelled} (explicit user cancellation). */
    public Task cancelled(Instant now) {
        return terminal(TaskStatus.CANCELLED, Optional.empty(), Optional.empty(), now);
    }

    /** Entering a terminal state sets {@code completed_at} and clears the pending request (reference §3.11). */
    private Task terminal(
            TaskStatus target, Optional<TaskResult> taskResult, Optional<TaskFailure> failure, Instant now) {
        status.requireMoveTo(target);
        return copy(now)
                .status(target)
                .completedAt(Optional.of(now))
                .result(taskResult)
                .failure(failure)
                .pendingRequestId(Optional.empty())
                .build();
    }

    /** Records provider-native ids without changing the status. */
    public Task withNativeIds(NativeIds ids, Instant now) {
        return copy(now).nativeIds(Objects.requireNonNull(ids, "ids")).build();
    }

    /** The same task with the store-owned event count (used by stores when reading or appending). */
    public Task withEventCount(int count) {
        return copy(updatedAt).eventCount(count).build();
    }

    private ServerFsException invalid(TaskStatus next) {
        return new ServerFsException(
                ErrorCode.INVALID_TASK_TRANSITION, "cannot move task from " + status.wire() + " to " + next.wire());
    }

    /** The one copy step: this task updated at {@code now}, with the columns a caller names replaced. */
    private Copy copy(Instant now) {
        return new Copy(this, now);
    }

    /** The columns a transition or store update may change; every other column is carried over unchanged. */
    private static final class Copy {
        private final Task from;
        private final Instant updatedAt;
        private TaskStatus status;
        private Optional<Instant> startedAt;
        private Optional<Instant> completedAt;
        private NativeIds nativeIds;
        private Optional<TaskResult> result;
        private Optional<TaskFailure> failure;
        private Optional<RequestId> pendingRequestId;
        private int eventCount;

        private Copy(Task from, Instant updatedAt) {
            this.from = from;
            this.updatedAt = updatedAt;
            this.status = from.status;
            this.startedAt = from.startedAt;
            this.completedAt = from.completedAt;
            this.nativeIds = from.nativeIds;
            this.result = from.result;
            this.failure = from.failure;
            this.pendingRequestId = from.pendingRequestId;
            this.eventCount = from.eventCount;
        }

        Copy status(TaskStatus value) {
            status = value;
            return this;
        }

        Copy startedAt(Optional<Instant> value) {
            startedAt = value;
            return this;
        }

        Copy completedAt(Optional<Instant> value) {
            completedAt = value;
            return this;
        }

        Copy nativeIds(NativeIds value) {
            nativeIds = value;
            return this;
        }

        Copy result(Optional<TaskResult> value) {
            result = value;
            return this;
        }

        Copy failure(Optional<TaskFailure> value) {
            failure = value;
            return this;
        }

        Copy pendingRequestId(Optional<RequestId> value) {
            pendingRequestId = value;
            return this;
        }

        Copy eventCount(int value) {
            eventCount = value;
            return this;
        }

        Task build() {
            return new Task(
                    from.id,
                    from.runtime,
                    from.workdirAlias,
                    from.workdirSlot,
                    from.relativeCwd,
                    from.profile,
                    status,
                    from.createdAt,
                    startedAt,
                    updatedAt,
                    completedAt,
                    from.deadlineAt,
                    from.continueFromTaskId,
                    from.correlationId,
                    from.idempotencyKey,
                    from.requestFingerprint,
                    nativeIds,
                    result,
                    from.manifest,
                    failure,
                    pendingRequestId,
                    eventCount);
        }
    }
}
