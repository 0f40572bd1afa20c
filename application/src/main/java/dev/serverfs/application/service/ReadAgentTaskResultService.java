package dev.serverfs.application.service;

import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase;
import dev.serverfs.application.port.out.ResultSpool;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.AgentLimits;
import dev.serverfs.domain.task.ResultChunk;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskResult;
import java.util.Objects;

/** Reference §3.5: UTF-8-safe chunks of a spooled result; inline results are not retrievable. */
public final class ReadAgentTaskResultService implements ReadAgentTaskResultUseCase {
    private final TaskStore store;
    private final ResultSpool spool;
    private final AgentLimits limits;

    public ReadAgentTaskResultService(TaskStore store, ResultSpool spool, AgentLimits limits) {
        this.store = Objects.requireNonNull(store, "store");
        this.spool = Objects.requireNonNull(spool, "spool");
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    @Override
    public ResultRead readResult(TaskId taskId, long offsetBytes, int maxBytes) {
        Task task = store.find(taskId)
                .orElseThrow(() -> new ServerFsException(ErrorCode.AGENT_TASK_NOT_FOUND, "unknown task"));
        TaskResult result = task.result()
                .filter(TaskResult::retrievable)
                .orElseThrow(() -> new ServerFsException(
                        ErrorCode.AGENT_RESULT_NOT_RETRIEVABLE, "the task has no spooled result"));
        ResultChunk.checkRequest(offsetBytes, maxBytes, result.sizeBytes(), limits);
        byte[] read = spool.read(taskId, offsetBytes, maxBytes);
        return new ResultRead(ResultChunk.of(read, offsetBytes, result.sizeBytes()), task.correlationId());
    }
}
