package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskStatus;
import java.util.Optional;

/**
 * {@code cancel_agent_task} / {@code task.cancel} (reference §3.9, v0.7.3 §6.2): terminal-first, repeat-safe; the
 * task is persisted {@code cancelled} before this returns; lease and guard follow after cleanup and proof.
 */
public interface CancelAgentTaskUseCase {

    CancelOutcome cancel(TaskId taskId);

    record CancelOutcome(TaskId taskId, TaskStatus status, Optional<CorrelationId> correlationId) {}
}
