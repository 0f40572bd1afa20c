package dev.serverfs.domain.task;

import java.util.Objects;

/**
 * A runtime's answer to "what happened to this task's provider?" (reference §6.3). Only {@link
 * ProviderState#STOPPED} is proof that lets a recovery guard be removed.
 */
public record ReconcileResult(ReconcileStatus status, ProviderState provider, String detail) {
    public ReconcileResult {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(detail, "detail");
    }

    public static ReconcileResult unknown(String detail) {
        return new ReconcileResult(ReconcileStatus.UNKNOWN, ProviderState.UNKNOWN, detail);
    }
}
