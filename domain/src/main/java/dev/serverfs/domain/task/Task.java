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
        return with(TaskStatus.STARTING, Optional.of(now), now, Optional.empty(), result, failure, Optional.empty());
    }

    /** {@code starting -> running}. */
    public Task running(Instant now) {
        if (status != TaskStatus.STARTING) {
            throw invalid(TaskStatus.RUNNING);
        }
        return with(TaskStatus.RUNNING, startedAt, now, Optional.empty(), result, failure, Optional.empty());
    }

    /** {@code running -> waiting_for_approval|waiting_for_question} for the given pending request. */
    public Task awaiting(InteractionKind kind, RequestId requestId, Instant now) {
        TaskStatus next = switch (kind) {
            case APPROVAL -> TaskStatus.WAITING_FOR_APPROVAL;
            case QUESTION -> TaskStatus.WAITING_FOR_QUESTION;
        };
        status.requireMoveTo(next);
        return with(next, startedAt, now, Optional.empty(), result, failure, Optional.of(requestId));
    }

    /** {@code waiting_* -> running}: the pending request was resolved or abandoned. */
    public Task resumed(Instant now) {
        if (!status.isWaiting()) {
            throw invalid(TaskStatus.RUNNING);
        }
        return with(TaskStatus.RUNNING, startedAt, now, Optional.empty(), result, failure, Optional.empty());
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
        return with(target, startedAt, now, Optional.of(now), taskResult, failure, Optional.empty());
    }

    /** Records provider-native ids without changing the status. */
    public Task withNativeIds(NativeIds ids, Instant now) {
        return new Task(
                id,
                runtime,
                workdirAlias,
                workdirSlot,
                relativeCwd,
                profile,
                status,
                createdAt,
                startedAt,
                now,
                completedAt,
                deadlineAt,
                continueFromTaskId,
                correlationId,
                idempotencyKey,
                requestFingerprint,
                Objects.requireNonNull(ids, "ids"),
                result,
                manifest,
                failure,
                pendingRequestId,
                eventCount);
    }

    /** The same task with the store-owned event count (used by stores when reading or appending). */
    public Task withEventCount(int count) {
        return new Task(
                id,
                runtime,
                workdirAlias,
                workdirSlot,
                relativeCwd,
                profile,
                status,
                createdAt,
                startedAt,
                updatedAt,
                completedAt,
                deadlineAt,
                continueFromTaskId,
                correlationId,
                idempotencyKey,
                requestFingerprint,
                nativeIds,
                result,
                manifest,
                failure,
                pendingRequestId,
                count);
    }

    private ServerFsException invalid(TaskStatus next) {
        return new ServerFsException(
                ErrorCode.INVALID_TASK_TRANSITION, "cannot move task from " + status.wire() + " to " + next.wire());
    }

    private Task with(
            TaskStatus next,
            Optional<Instant> started,
            Instant now,
            Optional<Instant> completed,
            Optional<TaskResult> nextResult,
            Optional<TaskFailure> nextFailure,
            Optional<RequestId> pending) {
        return new Task(
                id,
                runtime,
                workdirAlias,
                workdirSlot,
                relativeCwd,
                profile,
                next,
                createdAt,
                started,
                now,
                completed,
                deadlineAt,
                continueFromTaskId,
                correlationId,
                idempotencyKey,
                requestFingerprint,
                nativeIds,
                nextResult,
                manifest,
                nextFailure,
                pending,
                eventCount);
    }
}
