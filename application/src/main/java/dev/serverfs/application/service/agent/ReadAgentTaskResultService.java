package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase;
import dev.serverfs.application.port.out.ResultSpool;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ResultChunk;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskResult;

/** Reference §3.5: UTF-8-safe chunks of a spooled result; inline results are not retrievable. */
public final class ReadAgentTaskResultService implements ReadAgentTaskResultUseCase {
    private final TaskRecords records;
    private final ResultSpool spool;

    public ReadAgentTaskResultService(TaskRecords records, ResultSpool spool) {
        this.records = records;
        this.spool = spool;
    }

    @Override
    public ResultRead readResult(TaskId taskId, long offsetBytes, int maxBytes) {
        Task task = records.require(taskId);
        TaskResult result = task.result()
                .filter(TaskResult::retrievable)
                .orElseThrow(() -> new ServerFsException(
                        ErrorCode.AGENT_RESULT_NOT_RETRIEVABLE, "the task has no spooled result"));
        ResultChunk.checkRequest(offsetBytes, maxBytes, result.sizeBytes(), records.limits());
        byte[] read = spool.read(taskId, offsetBytes, maxBytes);
        return new ResultRead(ResultChunk.of(read, offsetBytes, result.sizeBytes()), task.correlationId());
    }
}
