package dev.serverfs.domain.task;

import dev.serverfs.domain.json.CanonicalJson;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.workdir.AgentMode;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;

/**
 * The immutable execution manifest of a task, schema 1 (reference §4.4): what ran where under which policy and
 * limits. Stored as canonical JSON plus its SHA-256; never contains host paths.
 */
public record ExecutionManifest(
        String bridgeVersion,
        RuntimeInfo runtime,
        String workdirAlias,
        int workdirSlot,
        String relativeCwd,
        TaskProfile profile,
        boolean readOnly,
        AgentMode agentMode,
        SortedSet<String> agentRuntimes,
        AgentLimits limits,
        Optional<TaskId> continueFromTaskId,
        Optional<CorrelationId> correlationId,
        Optional<IdempotencyKey> idempotencyKey,
        Instant deadlineAt) {

    public static final int SCHEMA_VERSION = 1;
    public static final int PROTOCOL_VERSION = 1;

    public ExecutionManifest {
        Objects.requireNonNull(bridgeVersion, "bridgeVersion");
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(workdirAlias, "workdirAlias");
        Objects.requireNonNull(relativeCwd, "relativeCwd");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(agentMode, "agentMode");
        agentRuntimes = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(agentRuntimes));
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(continueFromTaskId, "continueFromTaskId");
        Objects.requireNonNull(correlationId, "correlationId");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        Objects.requireNonNull(deadlineAt, "deadlineAt");
    }

    /** SHA-256 of canonical {alias, slot, read_only, agent_mode, sorted agent_runtimes}. */
    public String policySha256() {
        return CanonicalJson.sha256(JsonValue.object()
                .put("alias", workdirAlias)
                .put("slot", workdirSlot)
                .put("read_only", readOnly)
                .put("agent_mode", agentMode.wire())
                .put("agent_runtimes", JsonValue.stringsOf(List.copyOf(agentRuntimes)))
                .build());
    }

    public JsonValue.JsonObject toJson() {
        return JsonValue.object()
                .put("schema_version", SCHEMA_VERSION)
                .put("bridge_version", bridgeVersion)
                .put("protocol_version", PROTOCOL_VERSION)
                .put(
                        "runtime",
                        JsonValue.object()
                                .put("name", runtime.name())
                                .put("version", runtime.version())
                                .put(
                                        "in_flight_recovery",
                                        runtime.inFlightRecovery().wire())
                                .build())
                .put(
                        "workspace",
                        JsonValue.object()
                                .put("alias", workdirAlias)
                                .put("slot", workdirSlot)
                                .put("relative_cwd", relativeCwd)
                                .put("profile", profile.wire())
                                .build())
                .put(
                        "policy",
                        JsonValue.object()
                                .put("read_only", readOnly)
                                .put("agent_mode", agentMode.wire())
                                .put("policy_sha256", policySha256())
                                .build())
                .put("limits", limitsJson(limits))
                .put(
                        "advisor",
                        JsonValue.object()
                                .put("enabled", false)
                                .put("preflight_status", "disabled")
                                .build())
                .put(
                        "continuation",
                        JsonValue.object()
                                .put("from_task_id", continueFromTaskId.map(TaskId::value))
                                .build())
                .put("correlation_id", CorrelationId.wire(correlationId))
                .put("idempotency_key", IdempotencyKey.wire(idempotencyKey))
                .put("deadline_at", Timestamps.format(deadlineAt))
                .build();
    }

    public StoredManifest toStored() {
        JsonValue json = toJson();
        return new StoredManifest(CanonicalJson.write(json), CanonicalJson.sha256(json));
    }

    static JsonValue.JsonObject limitsJson(AgentLimits l) {
        return JsonValue.object()
                .put("max_prompt_bytes", l.maxPromptBytes())
                .put("max_final_response_bytes", l.maxFinalResponseBytes())
                .put("max_spooled_result_bytes", l.maxSpooledResultBytes())
                .put("max_result_chunk_bytes", l.maxResultChunkBytes())
                .put("result_preview_bytes", l.resultPreviewBytes())
                .put("task_timeout_seconds", l.taskTimeoutSeconds())
                .put("interaction_timeout_seconds", l.interactionTimeoutSeconds())
                .put("retention_seconds", l.retentionSeconds())
                .put("max_event_bytes", l.maxEventBytes())
                .put("max_interaction_bytes", l.maxInteractionBytes())
                .put("max_message_bytes", l.maxMessageBytes())
                .put("max_events_per_task", l.maxEventsPerTask())
                .put("max_active_tasks", l.maxActiveTasks())
                .build();
    }
}
