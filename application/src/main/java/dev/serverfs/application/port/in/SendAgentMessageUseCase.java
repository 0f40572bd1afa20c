package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.TaskId;
import java.util.Optional;

/** {@code send_agent_message} / {@code task.message.send} (reference §3.8): steer a running turn. */
public interface SendAgentMessageUseCase {

    MessageAck send(TaskId taskId, String message);

    /** {@code {task_id, accepted: true, correlation_id}}. */
    record MessageAck(TaskId taskId, Optional<CorrelationId> correlationId) {}
}
