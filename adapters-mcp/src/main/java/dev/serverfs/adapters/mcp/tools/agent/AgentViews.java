package dev.serverfs.adapters.mcp.tools.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.adapters.mcp.StoredJson;
import dev.serverfs.application.port.in.TaskView;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.TaskEvent;
import dev.serverfs.domain.task.TaskFailure;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskResult;
import dev.serverfs.domain.task.Timestamps;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Wire shapes of the Agent read models (reference §3.1, §3.3, §3.4) as ordered maps: wire names of enums and ids,
 * formatted timestamps, fields an unavailable runtime leaves out, stored JSON embedded as JSON.
 */
final class AgentViews {
    private AgentViews() {}

    static Map<String, Object> runtime(RuntimeInfo r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", r.name());
        m.put("available", r.available());
        if (!r.available()) {
            r.unavailableReason().ifPresent(reason -> m.put("unavailable_reason", reason));
            return m;
        }
        m.put("version", r.version().orElse(null));
        m.put("persistent_session", r.persistentSession());
        m.put("live_steer", r.liveSteer());
        m.put("interactive_approval", r.interactiveApproval());
        m.put("interactive_question", r.interactiveQuestion());
        m.put("in_flight_recovery", r.inFlightRecovery().wire());
        return m;
    }

    /**
     * The {@code get_agent_task} output (reference §3.3). Field for field the same record as the Bridge's
     * {@code task.get} result (adapters-bridge {@code AgentWire}) today; each adapter keeps its own rendering, since
     * adapters do not depend on each other and JSON types stay inside their module.
     */
    static Map<String, Object> task(TaskView t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("task_id", t.taskId().value());
        m.put("runtime", t.runtime().wire());
        m.put("workdir_alias", t.workdirAlias().value());
        m.put("workdir_slot", t.workdirSlot());
        m.put("relative_cwd", t.relativeCwd());
        m.put("profile", t.profile().wire());
        m.put("status", t.status().wire());
        m.put("created_at", time(t.createdAt()));
        m.put("started_at", t.startedAt().map(AgentViews::time).orElse(null));
        m.put("updated_at", time(t.updatedAt()));
        m.put("completed_at", t.completedAt().map(AgentViews::time).orElse(null));
        m.put("deadline_at", time(t.deadlineAt()));
        m.put("continue_from_task_id", t.continueFromTaskId().map(TaskId::value).orElse(null));
        m.put("correlation_id", CorrelationId.wire(t.correlationId()).orElse(null));
        m.put("idempotency_key", IdempotencyKey.wire(t.idempotencyKey()).orElse(null));
        m.put("final_response", t.result().map(TaskResult::finalResponse).orElse(null));
        m.put("manifest", json(t.manifest().json()));
        m.put("manifest_sha256", t.manifest().sha256());
        m.put("error_code", t.failure().map(f -> f.code().wire()).orElse(null));
        m.put("error_message", t.failure().map(TaskFailure::message).orElse(null));
        m.put("pending_request_id", t.pendingRequestId().map(RequestId::value).orElse(null));
        m.put(
                "final_response_truncated",
                t.result().map(TaskResult::retrievable).orElse(false));
        m.put(
                "result",
                t.result()
                        .map(r -> {
                            Map<String, Object> result = new LinkedHashMap<>();
                            result.put("storage", r.storage().wire());
                            result.put("size_bytes", r.sizeBytes());
                            result.put("sha256", r.sha256());
                            result.put("retrievable", r.retrievable());
                            return result;
                        })
                        .orElse(null));
        t.pendingRequest().ifPresent(p -> m.put("pending_request", pending(p)));
        return m;
    }

    static Map<String, Object> pending(PendingRequest p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("request_id", p.id().value());
        m.put("task_id", p.taskId().value());
        m.put("kind", p.kind().wire());
        m.put("status", p.status().wire());
        m.put("payload", json(p.payloadJson()));
        m.put("created_at", time(p.createdAt()));
        m.put("expires_at", p.expiresAt().map(AgentViews::time).orElse(null));
        m.put("resolved_at", p.resolvedAt().map(AgentViews::time).orElse(null));
        m.put("resolution", p.resolutionJson().map(AgentViews::json).orElse(null));
        return m;
    }

    static Map<String, Object> event(TaskEvent e, Optional<String> correlationId) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("event_id", e.eventId());
        m.put("task_id", e.taskId().value());
        m.put("correlation_id", correlationId.orElse(null));
        m.put("event_type", e.eventType());
        m.put("payload", json(e.payloadJson()));
        m.put("created_at", time(e.createdAt()));
        m.put("schema_version", TaskEvent.SCHEMA_VERSION);
        return m;
    }

    private static String time(Instant instant) {
        return Timestamps.format(instant);
    }

    private static JsonNode json(String stored) {
        return StoredJson.parse(stored);
    }
}
