package dev.serverfs.domain.task;

import java.time.Duration;

/**
 * Lifecycle and size limits of the Agent service (reference §4.3 BridgeLimits; v0.7.3 §4). All positive; spool
 * maximum at least the inline maximum; preview at most the inline maximum. Frozen into every task manifest.
 */
public record AgentLimits(
        int maxPromptBytes,
        int maxFinalResponseBytes,
        int maxSpooledResultBytes,
        int maxResultChunkBytes,
        int resultPreviewBytes,
        long taskTimeoutSeconds,
        long interactionTimeoutSeconds,
        long retentionSeconds,
        int maxEventBytes,
        int maxInteractionBytes,
        int maxMessageBytes,
        int maxEventsPerTask,
        int maxActiveTasks) {

    public AgentLimits {
        positive(maxPromptBytes, "max_prompt_bytes");
        positive(maxFinalResponseBytes, "max_final_response_bytes");
        positive(maxSpooledResultBytes, "max_spooled_result_bytes");
        positive(maxResultChunkBytes, "max_result_chunk_bytes");
        positive(resultPreviewBytes, "result_preview_bytes");
        positive(taskTimeoutSeconds, "task_timeout_seconds");
        positive(interactionTimeoutSeconds, "interaction_timeout_seconds");
        positive(retentionSeconds, "retention_seconds");
        positive(maxEventBytes, "max_event_bytes");
        positive(maxInteractionBytes, "max_interaction_bytes");
        positive(maxMessageBytes, "max_message_bytes");
        positive(maxEventsPerTask, "max_events_per_task");
        positive(maxActiveTasks, "max_active_tasks");
        if (maxSpooledResultBytes < maxFinalResponseBytes) {
            throw new IllegalArgumentException("max_spooled_result_bytes must be >= max_final_response_bytes");
        }
        if (resultPreviewBytes > maxFinalResponseBytes) {
            throw new IllegalArgumentException("result_preview_bytes must be <= max_final_response_bytes");
        }
    }

    /** The v0.7.3 defaults. */
    public static AgentLimits defaults() {
        return new AgentLimits(
                65_536, 262_144, 8_388_608, 65_536, 65_536, 7_200, 1_800, 604_800, 65_536, 65_536, 65_536, 10_000, 4);
    }

    /** The four administrator lifecycle settings of v0.7.3 §4 applied over the defaults. */
    public AgentLimits withLifecycle(
            Duration taskTimeout, Duration interactionTimeout, int activeTasks, Duration retention) {
        return new AgentLimits(
                maxPromptBytes,
                maxFinalResponseBytes,
                maxSpooledResultBytes,
                maxResultChunkBytes,
                resultPreviewBytes,
                taskTimeout.toSeconds(),
                interactionTimeout.toSeconds(),
                retention.toSeconds(),
                maxEventBytes,
                maxInteractionBytes,
                maxMessageBytes,
                maxEventsPerTask,
                activeTasks);
    }

    public Duration taskTimeout() {
        return Duration.ofSeconds(taskTimeoutSeconds);
    }

    public Duration interactionTimeout() {
        return Duration.ofSeconds(interactionTimeoutSeconds);
    }

    public Duration retention() {
        return Duration.ofSeconds(retentionSeconds);
    }

    private static void positive(long value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be a positive integer");
        }
    }
}
