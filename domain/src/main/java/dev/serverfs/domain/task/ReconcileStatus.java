package dev.serverfs.domain.task;

/** Reconciliation classification of a task's provider state after a restart (reference §6.3). */
public enum ReconcileStatus {
    REATTACHED,
    SESSION_RESUMABLE,
    NOT_RECOVERABLE,
    UNKNOWN
}
