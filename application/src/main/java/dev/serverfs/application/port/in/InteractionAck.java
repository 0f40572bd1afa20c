package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;
import java.util.Optional;

/** {@code {task_id, request_id, resolved: true, correlation_id}} of an approval or answer. */
public record InteractionAck(TaskId taskId, RequestId requestId, Optional<CorrelationId> correlationId) {}
