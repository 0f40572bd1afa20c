package dev.serverfs.application.service;

import dev.serverfs.application.port.in.GetAgentTaskUseCase;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import java.util.Objects;

/** Reference §3.3: a read of the store only; never starts, resumes or cancels anything. */
public final class GetAgentTaskService implements GetAgentTaskUseCase {
    private final TaskStore store;

    public GetAgentTaskService(TaskStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public TaskView get(TaskId taskId) {
        Task task = store.find(taskId)
                .orElseThrow(() -> new ServerFsException(ErrorCode.AGENT_TASK_NOT_FOUND, "unknown task"));
        return new TaskView(task, task.pendingRequestId().flatMap(store::findRequest));
    }
}
