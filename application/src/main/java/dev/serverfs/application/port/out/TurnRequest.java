package dev.serverfs.application.port.out;

import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a runtime needs to run one turn. {@code workingDirectory} is where the provider child starts: a {@link
 * HeldDirectory#path} naming the held directory (hand it to the process builder as is; issue 10 item 9), a host path
 * that never leaves the process and is never logged. {@code view} is what the child may see of its workdir (issue
 * 25). {@code resumeFrom} carries the native ids of the continued task, if any.
 */
public record TurnRequest(
        TaskId taskId,
        String prompt,
        Path workingDirectory,
        ProviderView view,
        TaskProfile profile,
        Optional<NativeIds> resumeFrom,
        Instant deadlineAt) {

    public TurnRequest {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        Objects.requireNonNull(view, "view");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(resumeFrom, "resumeFrom");
        Objects.requireNonNull(deadlineAt, "deadlineAt");
    }

    @Override
    public String toString() {
        return "TurnRequest[taskId=" + taskId + ", profile=" + profile.wire() + "]";
    }
}
