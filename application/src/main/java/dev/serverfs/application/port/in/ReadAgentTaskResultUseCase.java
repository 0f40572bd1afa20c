package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.ResultChunk;
import dev.serverfs.domain.task.TaskId;
import java.util.Optional;

/**
 * {@code read_agent_task_result} / {@code task.result.read} (reference §3.5): one UTF-8-safe chunk of a spooled
 * result; inline results → {@code AGENT_RESULT_NOT_RETRIEVABLE}.
 */
public interface ReadAgentTaskResultUseCase {
    int DEFAULT_MAX_BYTES = 65_536;

    ResultRead readResult(TaskId taskId, long offsetBytes, int maxBytes);

    record ResultRead(ResultChunk chunk, Optional<CorrelationId> correlationId) {}
}
