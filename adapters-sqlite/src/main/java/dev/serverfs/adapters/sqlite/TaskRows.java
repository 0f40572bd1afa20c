package dev.serverfs.adapters.sqlite;

import static dev.serverfs.adapters.sqlite.jooq.Tables.TASKS;

import dev.serverfs.adapters.sqlite.jooq.tables.records.EventsRecord;
import dev.serverfs.adapters.sqlite.jooq.tables.records.PendingRequestsRecord;
import dev.serverfs.adapters.sqlite.jooq.tables.records.TasksRecord;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.RequestStatus;
import dev.serverfs.domain.task.ResultStorage;
import dev.serverfs.domain.task.StoredManifest;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskEvent;
import dev.serverfs.domain.task.TaskFailure;
import dev.serverfs.domain.task.TaskResult;
import dev.serverfs.domain.task.TaskStatus;
import dev.serverfs.domain.workdir.WorkdirAlias;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Maps rows to domain records and back, at the query (reference §5 column by column). Rows written by an earlier
 * ServerFS may lack columns added later; they read as NULL and are mapped without inventing identities: a
 * missing idempotency key stays absent.
 */
final class TaskRows {

    private TaskRows() {}

    /**
     * Every column the application owns, each marked changed (so a null clears the stored value); {@code task_id} is
     * the key and {@code event_count} belongs to events, so neither is set.
     */
    static TasksRecord columns(Task task) {
        Optional<TaskResult> result = task.result();
        Optional<TaskFailure> failure = task.failure();
        TasksRecord row = new TasksRecord();
        row.setRuntime(task.runtime());
        row.setWorkdirAlias(task.workdirAlias().value());
        row.setWorkdirSlot(task.workdirSlot());
        row.setRelativeCwd(task.relativeCwd());
        row.setProfile(task.profile());
        row.setStatus(task.status());
        row.setCreatedAt(task.createdAt());
        row.setStartedAt(task.startedAt().orElse(null));
        row.setUpdatedAt(task.updatedAt());
        row.setCompletedAt(task.completedAt().orElse(null));
        row.setDeadlineAt(task.deadlineAt());
        row.setContinueFromTaskId(task.continueFromTaskId().orElse(null));
        row.setCorrelationId(CorrelationId.wire(task.correlationId()).orElse(null));
        row.setIdempotencyKey(IdempotencyKey.wire(task.idempotencyKey()).orElse(null));
        row.setRequestFingerprint(task.requestFingerprint().orElse(null));
        row.setNativeSessionId(task.nativeIds().sessionId().orElse(null));
        row.setNativeTurnId(task.nativeIds().turnId().orElse(null));
        row.setFinalResponse(result.map(TaskResult::finalResponse).orElse(null));
        row.setResultStorage(
                result.map(TaskResult::storage).orElse(ResultStorage.INLINE).wire());
        row.setResultSizeBytes(result.map(TaskResult::sizeBytes).orElse(null));
        row.setResultSha256(result.map(TaskResult::sha256).orElse(null));
        row.setManifestJson(task.manifest().json());
        row.setManifestSha256(task.manifest().sha256());
        row.setErrorCode(failure.map(f -> f.code().wire()).orElse(null));
        row.setErrorMessage(failure.map(TaskFailure::message).orElse(null));
        row.setPendingRequestId(task.pendingRequestId().orElse(null));
        row.touched(true);
        row.touched(TASKS.TASK_ID, false);
        row.touched(TASKS.EVENT_COUNT, false);
        return row;
    }

    static Task task(TasksRecord row) {
        TaskStatus status = row.getStatus();
        Instant createdAt = row.getCreatedAt();
        return new Task(
                row.getTaskId(),
                row.getRuntime(),
                new WorkdirAlias(row.getWorkdirAlias()),
                row.getWorkdirSlot(),
                row.getRelativeCwd(),
                row.getProfile(),
                status,
                createdAt,
                Optional.ofNullable(row.getStartedAt()),
                row.getUpdatedAt(),
                Optional.ofNullable(row.getCompletedAt()),
                // A row from before deadlines were recorded has none; its creation time is the honest bound.
                Optional.ofNullable(row.getDeadlineAt()).orElse(createdAt),
                Optional.ofNullable(row.getContinueFromTaskId()),
                Optional.ofNullable(row.getCorrelationId()).map(CorrelationId::new),
                Optional.ofNullable(row.getIdempotencyKey()).map(IdempotencyKey::new),
                Optional.ofNullable(row.getRequestFingerprint()),
                new NativeIds(
                        Optional.ofNullable(row.getNativeSessionId()), Optional.ofNullable(row.getNativeTurnId())),
                status == TaskStatus.SUCCEEDED ? Optional.of(result(row)) : Optional.empty(),
                manifest(row),
                status == TaskStatus.FAILED || status == TaskStatus.INTERRUPTED
                        ? Optional.of(failure(row))
                        : Optional.empty(),
                status.isWaiting() ? Optional.of(row.getPendingRequestId()) : Optional.empty(),
                row.getEventCount());
    }

    static PendingRequest request(PendingRequestsRecord row) {
        RequestStatus status = row.getStatus();
        boolean resolved = status == RequestStatus.RESOLVED;
        return new PendingRequest(
                row.getRequestId(),
                row.getTaskId(),
                row.getKind(),
                status,
                row.getPayloadJson(),
                row.getCreatedAt(),
                Optional.ofNullable(row.getExpiresAt()),
                resolved ? Optional.ofNullable(row.getResolvedAt()) : Optional.empty(),
                resolved ? Optional.ofNullable(row.getResolutionJson()) : Optional.empty());
    }

    /** The row of a newly opened request. */
    static PendingRequestsRecord row(PendingRequest request) {
        PendingRequestsRecord row = new PendingRequestsRecord();
        row.setRequestId(request.id());
        row.setTaskId(request.taskId());
        row.setKind(request.kind());
        row.setStatus(request.status());
        row.setPayloadJson(request.payloadJson());
        row.setCreatedAt(request.createdAt());
        row.setExpiresAt(request.expiresAt().orElse(null));
        row.setResolvedAt(request.resolvedAt().orElse(null));
        row.setResolutionJson(request.resolutionJson().orElse(null));
        row.touched(true);
        return row;
    }

    static TaskEvent event(EventsRecord row) {
        return new TaskEvent(
                row.getEventId(), row.getTaskId(), row.getEventType(), row.getPayloadJson(), row.getCreatedAt());
    }

    private static TaskResult result(TasksRecord row) {
        ResultStorage storage = ResultStorage.fromWire(row.getResultStorage()).orElse(ResultStorage.INLINE);
        String text = row.getFinalResponse() == null ? "" : row.getFinalResponse();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        // Inline rows from before result metadata existed hold the whole text, so size and hash are derivable.
        long size = row.getResultSizeBytes() != null ? row.getResultSizeBytes() : bytes.length;
        String sha = row.getResultSha256() != null ? row.getResultSha256() : sha256(bytes);
        return new TaskResult(text, storage, size, sha);
    }

    private static TaskFailure failure(TasksRecord row) {
        String code = row.getErrorCode();
        ErrorCode known = Arrays.stream(ErrorCode.values())
                .filter(c -> c.wire().equals(code))
                .findFirst()
                .orElse(ErrorCode.AGENT_PROVIDER_ERROR);
        return new TaskFailure(known, row.getErrorMessage() == null ? "" : row.getErrorMessage());
    }

    private static StoredManifest manifest(TasksRecord row) {
        if (row.getManifestJson() != null && row.getManifestSha256() != null) {
            return new StoredManifest(row.getManifestJson(), row.getManifestSha256());
        }
        // Tasks from before execution manifests (v0.7.0) have none: an empty object, hashed truthfully.
        return new StoredManifest("{}", sha256("{}".getBytes(StandardCharsets.UTF_8)));
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
