package dev.serverfs.application.service;

import dev.serverfs.application.port.in.SendAgentMessageUseCase;
import dev.serverfs.domain.task.TaskId;
import java.util.Objects;

/** Reference §3.8: the message text is handed to the runtime and never stored or logged. */
public final class SendAgentMessageService implements SendAgentMessageUseCase {
    private final TaskLifecycle lifecycle;

    public SendAgentMessageService(TaskLifecycle lifecycle) {
        this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
    }

    @Override
    public MessageAck send(TaskId taskId, String message) {
        return lifecycle.sendMessage(taskId, message);
    }
}
