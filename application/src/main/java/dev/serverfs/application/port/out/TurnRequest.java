package dev.serverfs.application.port.out;

import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a runtime needs to run one turn. {@code workingDirectory} is a host path: it never leaves the process and
 * is never logged. {@code resumeFrom} carries the native ids of the continued task, if any.
 */
public record TurnRequest(
        TaskId taskId,
        String prompt,
        Path workingDirectory,
        TaskProfile profile,
        Optional<NativeIds> resumeFrom,
        Instant deadlineAt) {

    public TurnRequest {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(resumeFrom, "resumeFrom");
        Objects.requireNonNull(deadlineAt, "deadlineAt");
    }

    @Override
    public String toString() {
        return "TurnRequest[taskId=" + taskId + ", profile=" + profile.wire() + "]";
    }
}
