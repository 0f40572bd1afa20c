package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.TaskId;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code submit_agent_task} / {@code task.submit} (reference §3.2, §4.3; v0.7.3 §3): returns at once, never waits
 * for the turn. A retry with the same idempotency key and the same inputs returns the retained task's handle ({@link
 * Submission.Replayed}) without any new lease, guard or turn; changed inputs → {@code AGENT_IDEMPOTENCY_CONFLICT}.
 */
public interface SubmitAgentTaskUseCase {

    Submission submit(SubmitAgentTaskCommand command);

    /** The caller's request; {@code profile} is the wire name (default {@code workspace-write}). */
    record SubmitAgentTaskCommand(
            String runtime,
            String workdir,
            String prompt,
            String path,
            String profile,
            Optional<TaskId> continueFromTaskId,
            Optional<String> correlationId,
            Optional<String> idempotencyKey) {
        public SubmitAgentTaskCommand {
            Objects.requireNonNull(runtime, "runtime");
            Objects.requireNonNull(workdir, "workdir");
            Objects.requireNonNull(prompt, "prompt");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(profile, "profile");
            Objects.requireNonNull(continueFromTaskId, "continueFromTaskId");
            Objects.requireNonNull(correlationId, "correlationId");
            Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        }

        @Override
        public String toString() {
            return "SubmitAgentTaskCommand[runtime=" + runtime + ", workdir=" + workdir + ", profile=" + profile + "]";
        }
    }

    /** What submit did: created a new task, or replayed a retained one for the same idempotency key. */
    sealed interface Submission {
        TaskHandle handle();

        record Created(TaskHandle handle) implements Submission {
            public Created {
                Objects.requireNonNull(handle, "handle");
            }
        }

        record Replayed(TaskHandle handle) implements Submission {
            public Replayed {
                Objects.requireNonNull(handle, "handle");
            }
        }
    }
}
