package dev.serverfs.application.service;

import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import java.util.Objects;

/** Reference §4.3 Submit with the v0.7.3 idempotency rules; the work is in {@link TaskLifecycle}. */
public final class SubmitAgentTaskService implements SubmitAgentTaskUseCase {
    private final TaskLifecycle lifecycle;

    public SubmitAgentTaskService(TaskLifecycle lifecycle) {
        this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
    }

    @Override
    public Submission submit(SubmitAgentTaskCommand command) {
        return lifecycle.submit(command);
    }
}
