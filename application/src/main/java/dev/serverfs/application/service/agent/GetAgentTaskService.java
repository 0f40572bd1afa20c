package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.in.GetAgentTaskUseCase;
import dev.serverfs.application.port.in.TaskView;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;

/** Reference §3.3: a read of the store only; never starts, resumes or cancels anything. */
public final class GetAgentTaskService implements GetAgentTaskUseCase {
    private final TaskRecords records;

    public GetAgentTaskService(TaskRecords records) {
        this.records = records;
    }

    @Override
    public TaskView get(TaskId taskId) {
        Task task = records.require(taskId);
        return TaskView.of(task, task.pendingRequestId().flatMap(records.store()::findRequest));
    }
}
