package dev.serverfs.application.service;

import dev.serverfs.application.port.in.CancelAgentTaskUseCase;
import dev.serverfs.domain.task.TaskId;
import java.util.Objects;

/** Reference §3.9, v0.7.3 §6.2 and §14.1: terminal-first and repeat-safe. */
public final class CancelAgentTaskService implements CancelAgentTaskUseCase {
    private final TaskLifecycle lifecycle;

    public CancelAgentTaskService(TaskLifecycle lifecycle) {
        this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
    }

    @Override
    public CancelOutcome cancel(TaskId taskId) {
        return lifecycle.cancel(taskId);
    }
}
