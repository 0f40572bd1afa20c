package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.TaskId;

/** {@code get_agent_task} / {@code task.get} (reference §3.3): the task's view and its pending request, if any. */
public interface GetAgentTaskUseCase {

    TaskView get(TaskId taskId);
}
