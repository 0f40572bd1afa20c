package dev.serverfs.domain.task;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One approval or question a provider asked for (reference §3.14, §5 {@code pending_requests}). The payload and
 * resolution are canonical JSON text. {@code resolvedAt}/{@code resolutionJson} exist exactly when resolved.
 */
public record PendingRequest(
        RequestId id,
        TaskId taskId,
        InteractionKind kind,
        RequestStatus status,
        String payloadJson,
        Instant createdAt,
        Optional<Instant> expiresAt,
        Optional<Instant> resolvedAt,
        Optional<String> resolutionJson) {

    public PendingRequest {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(payloadJson, "payloadJson");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(resolvedAt, "resolvedAt");
        Objects.requireNonNull(resolutionJson, "resolutionJson");
        boolean resolved = status == RequestStatus.RESOLVED;
        if (resolvedAt.isPresent() != resolved || resolutionJson.isPresent() != resolved) {
            throw new IllegalArgumentException("resolvedAt and resolution exist exactly when resolved");
        }
    }

    /** A new pending request. */
    public static PendingRequest open(
            RequestId id, TaskId taskId, InteractionKind kind, String payloadJson, Instant now, Instant expiresAt) {
        return new PendingRequest(
                id,
                taskId,
                kind,
                RequestStatus.PENDING,
                payloadJson,
                now,
                Optional.of(expiresAt),
                Optional.empty(),
                Optional.empty());
    }

    public PendingRequest resolved(String resolution, Instant now) {
        return new PendingRequest(
                id,
                taskId,
                kind,
                RequestStatus.RESOLVED,
                payloadJson,
                createdAt,
                expiresAt,
                Optional.of(now),
                Optional.of(resolution));
    }

    public PendingRequest stale() {
        return new PendingRequest(
                id,
                taskId,
                kind,
                RequestStatus.STALE,
                payloadJson,
                createdAt,
                expiresAt,
                Optional.empty(),
                Optional.empty());
    }

    /** True when {@code now} is at or after {@code expires_at}. */
    public boolean expiredAt(Instant now) {
        return expiresAt.map(e -> !now.isBefore(e)).orElse(false);
    }
}
