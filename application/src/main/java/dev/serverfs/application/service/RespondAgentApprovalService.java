package dev.serverfs.application.service;

import dev.serverfs.application.port.in.InteractionAck;
import dev.serverfs.application.port.in.RespondAgentApprovalUseCase;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;
import java.util.Objects;

/** Reference §3.6; {@code cancel_task} delegates to the cancel path (v0.7.3 §14.4). */
public final class RespondAgentApprovalService implements RespondAgentApprovalUseCase {
    private final TaskLifecycle lifecycle;

    public RespondAgentApprovalService(TaskLifecycle lifecycle) {
        this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
    }

    @Override
    public InteractionAck respond(TaskId taskId, RequestId requestId, ApprovalResolution resolution) {
        return lifecycle.respondApproval(taskId, requestId, resolution);
    }
}
