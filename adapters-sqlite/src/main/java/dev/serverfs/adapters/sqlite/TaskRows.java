package dev.serverfs.adapters.sqlite;

import static dev.serverfs.adapters.sqlite.jooq.Tables.TASKS;

import dev.serverfs.adapters.sqlite.jooq.tables.records.EventsRecord;
import dev.serverfs.adapters.sqlite.jooq.tables.records.PendingRequestsRecord;
import dev.serverfs.adapters.sqlite.jooq.tables.records.TasksRecord;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.InteractionKind;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.RequestStatus;
import dev.serverfs.domain.task.ResultStorage;
import dev.serverfs.domain.task.StoredManifest;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskEvent;
import dev.serverfs.domain.task.TaskFailure;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskResult;
import dev.serverfs.domain.task.TaskStatus;
import dev.serverfs.domain.workdir.WorkdirAlias;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jooq.Field;

/**
 * Maps rows to domain records and back, at the query (reference §5 column by column). Rows written by an earlier
 * ServerFS may lack columns added later; they read as NULL and are mapped without inventing identities: a
 * missing idempotency key stays absent.
 */
final class TaskRows {

    private TaskRows() {}

    /** Every column the application owns; {@code task_id} is the key and {@code event_count} belongs to events. */
    static Map<Field<?>, Object> columns(Task task) {
        Optional<TaskResult> result = task.result();
        Optional<TaskFailure> failure = task.failure();
        LinkedHashMap<Field<?>, Object> values = new LinkedHashMap<>();
        values.put(TASKS.RUNTIME, task.runtime());
        values.put(TASKS.WORKDIR_ALIAS, task.workdirAlias().value());
        values.put(TASKS.WORKDIR_SLOT, task.workdirSlot());
        values.put(TASKS.RELATIVE_CWD, task.relativeCwd());
        values.put(TASKS.PROFILE, task.profile().wire());
        values.put(TASKS.STATUS, task.status().wire());
        values.put(TASKS.CREATED_AT, SqliteTimestamps.format(task.createdAt()));
        values.put(TASKS.STARTED_AT, timestamp(task.startedAt()));
        values.put(TASKS.UPDATED_AT, SqliteTimestamps.format(task.updatedAt()));
        values.put(TASKS.COMPLETED_AT, timestamp(task.completedAt()));
        values.put(TASKS.DEADLINE_AT, SqliteTimestamps.format(task.deadlineAt()));
        values.put(
                TASKS.CONTINUE_FROM_TASK_ID,
                task.continueFromTaskId().map(TaskId::value).orElse(null));
        values.put(
                TASKS.CORRELATION_ID, CorrelationId.wire(task.correlationId()).orElse(null));
        values.put(
                TASKS.IDEMPOTENCY_KEY,
                IdempotencyKey.wire(task.idempotencyKey()).orElse(null));
        values.put(TASKS.REQUEST_FINGERPRINT, task.requestFingerprint().orElse(null));
        values.put(TASKS.NATIVE_SESSION_ID, task.nativeIds().sessionId().orElse(null));
        values.put(TASKS.NATIVE_TURN_ID, task.nativeIds().turnId().orElse(null));
        values.put(TASKS.FINAL_RESPONSE, result.map(TaskResult::finalResponse).orElse(null));
        values.put(
                TASKS.RESULT_STORAGE,
                result.map(TaskResult::storage).orElse(ResultStorage.INLINE).wire());
        values.put(TASKS.RESULT_SIZE_BYTES, result.map(TaskResult::sizeBytes).orElse(null));
        values.put(TASKS.RESULT_SHA256, result.map(TaskResult::sha256).orElse(null));
        values.put(TASKS.MANIFEST_JSON, task.manifest().json());
        values.put(TASKS.MANIFEST_SHA256, task.manifest().sha256());
        values.put(TASKS.ERROR_CODE, failure.map(f -> f.code().wire()).orElse(null));
        values.put(TASKS.ERROR_MESSAGE, failure.map(TaskFailure::message).orElse(null));
        values.put(
                TASKS.PENDING_REQUEST_ID,
                task.pendingRequestId().map(RequestId::value).orElse(null));
        return values;
    }

    static Task task(TasksRecord row) {
        TaskStatus status = TaskStatus.fromWire(row.getStatus())
                .orElseThrow(() -> new IllegalStateException("unknown task status in the store"));
        Instant createdAt = SqliteTimestamps.parse(row.getCreatedAt());
        return new Task(
                new TaskId(row.getTaskId()),
                row.getRuntime(),
                new WorkdirAlias(row.getWorkdirAlias()),
                row.getWorkdirSlot(),
                row.getRelativeCwd(),
                TaskProfile.fromWire(row.getProfile())
                        .orElseThrow(() -> new IllegalStateException("unknown task profile in the store")),
                status,
                createdAt,
                optionalTimestamp(row.getStartedAt()),
                SqliteTimestamps.parse(row.getUpdatedAt()),
                optionalTimestamp(row.getCompletedAt()),
                // A row from before deadlines were recorded has none; its creation time is the honest bound.
                optionalTimestamp(row.getDeadlineAt()).orElse(createdAt),
                Optional.ofNullable(row.getContinueFromTaskId()).map(TaskId::new),
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
                status.isWaiting() ? Optional.of(new RequestId(row.getPendingRequestId())) : Optional.empty(),
                row.getEventCount());
    }

    static PendingRequest request(PendingRequestsRecord row) {
        RequestStatus status = RequestStatus.fromWire(row.getStatus())
                .orElseThrow(() -> new IllegalStateException("unknown request status in the store"));
        boolean resolved = status == RequestStatus.RESOLVED;
        return new PendingRequest(
                new RequestId(row.getRequestId()),
                new TaskId(row.getTaskId()),
                InteractionKind.fromWire(row.getKind())
                        .orElseThrow(() -> new IllegalStateException("unknown request kind in the store")),
                status,
                row.getPayloadJson(),
                SqliteTimestamps.parse(row.getCreatedAt()),
                optionalTimestamp(row.getExpiresAt()),
                resolved ? optionalTimestamp(row.getResolvedAt()) : Optional.empty(),
                resolved ? Optional.ofNullable(row.getResolutionJson()) : Optional.empty());
    }

    static TaskEvent event(EventsRecord row) {
        return new TaskEvent(
                row.getEventId(),
                new TaskId(row.getTaskId()),
                row.getEventType(),
                row.getPayloadJson(),
                SqliteTimestamps.parse(row.getCreatedAt()));
    }

    static String timestamp(Optional<Instant> instant) {
        return instant.map(SqliteTimestamps::format).orElse(null);
    }

    private static Optional<Instant> optionalTimestamp(String text) {
        return Optional.ofNullable(text).map(SqliteTimestamps::parse);
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
