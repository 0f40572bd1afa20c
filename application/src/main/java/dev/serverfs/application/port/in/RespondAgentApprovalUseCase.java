package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;

/**
 * {@code respond_agent_approval} / {@code task.approval.respond} (reference §3.6). {@code cancel_task} then takes
 * the same path as {@code cancel_agent_task}: the task is persisted {@code cancelled} before this returns.
 */
public interface RespondAgentApprovalUseCase {

    InteractionAck respond(TaskId taskId, RequestId requestId, ApprovalResolution resolution);
}
