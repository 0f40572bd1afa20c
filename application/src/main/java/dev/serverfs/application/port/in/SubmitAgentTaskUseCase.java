package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.AgentAccessPolicy;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.Parsed;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code submit_agent_task} / {@code task.submit} (reference §3.2, §4.3; v0.7.3 §3): returns at once, never waits
 * for the turn. A retry with the same idempotency key and the same inputs returns the retained task's handle ({@link
 * Submission.Replayed}) without any new lease, guard or turn; changed inputs → {@code AGENT_IDEMPOTENCY_CONFLICT}.
 */
public interface SubmitAgentTaskUseCase {

    Submission submit(SubmitAgentTaskCommand command);

    /**
     * The caller's request, each field parsed once from the caller's text by {@link #parse}. A field that did not
     * parse is kept as its refusal, reported where the contract checks that field (reference §3.2, §4.3), so a
     * request with several faults is refused for the first in that order, on every edge.
     */
    record SubmitAgentTaskCommand(
            Parsed<RuntimeName> runtime,
            String workdir,
            String prompt,
            String path,
            Parsed<TaskProfile> profile,
            Optional<TaskId> continueFromTaskId,
            Parsed<Optional<CorrelationId>> correlationId,
            Parsed<Optional<IdempotencyKey>> idempotencyKey) {
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

        /**
         * The one parse step from the caller's text (the MCP tool's arguments, the Bridge's params): runtime and
         * profile by their wire names, the opaque caller strings by their rules; a malformed {@code
         * continue_from_task_id} is an unknown task ({@code AGENT_TASK_NOT_FOUND}) at once, as it always was.
         */
        public static SubmitAgentTaskCommand parse(
                String runtime,
                String workdir,
                String prompt,
                String path,
                String profile,
                Optional<String> continueFromTaskId,
                Optional<String> correlationId,
                Optional<String> idempotencyKey) {
            return new SubmitAgentTaskCommand(
                    AgentAccessPolicy.runtime(runtime, workdir),
                    workdir,
                    prompt,
                    path,
                    AgentAccessPolicy.profile(profile),
                    continueFromTaskId.map(TaskId::parse),
                    Parsed.optional(correlationId, CorrelationId::parse),
                    Parsed.optional(idempotencyKey, IdempotencyKey::parse));
        }

        /** The same request starting in {@code normalisedPath} (its starting directory, already checked). */
        public SubmitAgentTaskCommand withPath(String normalisedPath) {
            return new SubmitAgentTaskCommand(
                    runtime,
                    workdir,
                    prompt,
                    normalisedPath,
                    profile,
                    continueFromTaskId,
                    correlationId,
                    idempotencyKey);
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
