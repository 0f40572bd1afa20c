package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import java.util.Optional;

/** {@code get_agent_task} / {@code task.get} (reference §3.3): the task and its pending request, if any. */
public interface GetAgentTaskUseCase {

    TaskView get(TaskId taskId);

    /** The stored task; the edge leaves out native ids and the fingerprint. */
    record TaskView(Task task, Optional<PendingRequest> pendingRequest) {}
}
