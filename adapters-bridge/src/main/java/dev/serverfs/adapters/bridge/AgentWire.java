package dev.serverfs.adapters.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.application.port.in.CancelAgentTaskUseCase.CancelOutcome;
import dev.serverfs.application.port.in.InteractionAck;
import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase.EventPage;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase.ResultRead;
import dev.serverfs.application.port.in.SendAgentMessageUseCase.MessageAck;
import dev.serverfs.application.port.in.TaskHandle;
import dev.serverfs.application.port.in.TaskView;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.json.CanonicalJson;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.InFlightRecovery;
import dev.serverfs.domain.task.InteractionKind;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.RequestStatus;
import dev.serverfs.domain.task.ResultChunk;
import dev.serverfs.domain.task.ResultStorage;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.StoredManifest;
import dev.serverfs.domain.task.TaskEvent;
import dev.serverfs.domain.task.TaskFailure;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskResult;
import dev.serverfs.domain.task.TaskStatus;
import dev.serverfs.domain.task.Timestamps;
import dev.serverfs.domain.workdir.WorkdirAlias;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The results of the nine Agent methods both ways (reference §3.1–§3.9): the Bridge writes them from the in-port
 * read models, the client parses them back into the same read models; a result that breaks a read model's rules is
 * {@code AGENT_BRIDGE_PROTOCOL_ERROR}.
 */
final class AgentWire {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private AgentWire() {}

    // ---- runtime.list ----

    static ObjectNode runtimes(List<RuntimeInfo> runtimes) {
        ObjectNode out = NODES.objectNode();
        ArrayNode list = out.putArray("runtimes");
        runtimes.forEach(r -> list.add(runtime(r)));
        return out;
    }

    static List<RuntimeInfo> runtimes(ObjectNode result) {
        return parsed(() -> WireFields.result(result).objects("runtimes").stream()
                .map(AgentWire::runtime)
                .toList());
    }

    private static ObjectNode runtime(RuntimeInfo r) {
        ObjectNode m = NODES.objectNode();
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

    private static RuntimeInfo runtime(JsonNode node) {
        WireFields f = WireFields.result(node);
        String name = f.string("name");
        if (!f.bool("available")) {
            return f.optionalString("unavailable_reason")
                    .map(reason -> RuntimeInfo.unavailable(name, reason))
                    .orElseGet(() -> RuntimeInfo.unavailable(name));
        }
        String recovery = f.string("in_flight_recovery");
        return new RuntimeInfo(
                name,
                true,
                f.optionalString("version"),
                f.bool("persistent_session"),
                f.bool("live_steer"),
                f.bool("interactive_approval"),
                f.bool("interactive_question"),
                Arrays.stream(InFlightRecovery.values())
                        .filter(v -> v.wire().equals(recovery))
                        .findFirst()
                        .orElseThrow(() -> f.fail("unknown in_flight_recovery")));
    }

    // ---- task.submit: the handle {task_id, status, correlation_id, idempotency_key} ----

    static ObjectNode handle(TaskHandle h) {
        ObjectNode m = NODES.objectNode();
        m.put("task_id", h.taskId().value());
        m.put("status", h.status().wire());
        m.put("correlation_id", CorrelationId.wire(h.correlationId()).orElse(null));
        m.put("idempotency_key", IdempotencyKey.wire(h.idempotencyKey()).orElse(null));
        return m;
    }

    /**
     * The handle as the Bridge answered it, read in full, with the starting directory and profile the wire leaves
     * out (the client knows both: it sent them).
     */
    static TaskHandle handle(ObjectNode result, String relativeCwd, TaskProfile profile) {
        Answered answered = parsed(() -> {
            WireFields f = WireFields.result(result);
            return new Answered(
                    new TaskId(f.string("task_id")),
                    status(f, "status"),
                    f.optionalString("correlation_id").map(CorrelationId::new),
                    f.optionalString("idempotency_key").map(IdempotencyKey::new));
        });
        return new TaskHandle(
                answered.taskId(),
                answered.status(),
                answered.correlationId(),
                answered.idempotencyKey(),
                relativeCwd,
                profile);
    }

    /** The four fields of the {@code task.submit} result. */
    private record Answered(
            TaskId taskId,
            TaskStatus status,
            Optional<CorrelationId> correlationId,
            Optional<IdempotencyKey> idempotencyKey) {}

    // ---- task.get ----

    /**
     * The {@code task.get} result (reference §3.3). Field for field the same record as {@code get_agent_task}'s
     * output (adapters-mcp {@code AgentViews}) today; each adapter keeps its own rendering, since adapters do not
     * depend on each other and JSON types stay inside their module.
     */
    static ObjectNode taskView(TaskView t) {
        ObjectNode m = NODES.objectNode();
        m.put("task_id", t.taskId().value());
        m.put("runtime", t.runtime().wire());
        m.put("workdir_alias", t.workdirAlias().value());
        m.put("workdir_slot", t.workdirSlot());
        m.put("relative_cwd", t.relativeCwd());
        m.put("profile", t.profile().wire());
        m.put("status", t.status().wire());
        m.put("created_at", time(t.createdAt()));
        m.put("started_at", t.startedAt().map(AgentWire::time).orElse(null));
        m.put("updated_at", time(t.updatedAt()));
        m.put("completed_at", t.completedAt().map(AgentWire::time).orElse(null));
        m.put("deadline_at", time(t.deadlineAt()));
        m.put("continue_from_task_id", t.continueFromTaskId().map(TaskId::value).orElse(null));
        m.put("correlation_id", CorrelationId.wire(t.correlationId()).orElse(null));
        m.put("idempotency_key", IdempotencyKey.wire(t.idempotencyKey()).orElse(null));
        m.put("final_response", t.result().map(TaskResult::finalResponse).orElse(null));
        m.set("manifest", embedded(t.manifest().json()));
        m.put("manifest_sha256", t.manifest().sha256());
        m.put("error_code", t.failure().map(f -> f.code().wire()).orElse(null));
        m.put("error_message", t.failure().map(TaskFailure::message).orElse(null));
        m.put("pending_request_id", t.pendingRequestId().map(RequestId::value).orElse(null));
        m.put(
                "final_response_truncated",
                t.result().map(TaskResult::retrievable).orElse(false));
        if (t.result().isPresent()) {
            TaskResult r = t.result().get();
            ObjectNode result = m.putObject("result");
            result.put("storage", r.storage().wire());
            result.put("size_bytes", r.sizeBytes());
            result.put("sha256", r.sha256());
            result.put("retrievable", r.retrievable());
        } else {
            m.putNull("result");
        }
        t.pendingRequest().ifPresent(p -> m.set("pending_request", pending(p)));
        return m;
    }

    static TaskView taskView(ObjectNode node) {
        return parsed(() -> {
            WireFields f = WireFields.result(node);
            TaskStatus status = status(f, "status");
            Optional<TaskResult> result = f.optionalObject("result")
                    .map(r -> new TaskResult(
                            f.optionalString("final_response").orElse(""),
                            ResultStorage.fromWire(r.string("storage")).orElseThrow(() -> r.fail("unknown storage")),
                            r.integer("size_bytes"),
                            r.string("sha256")));
            Optional<TaskFailure> failure = f.optionalString("error_code")
                    .map(code -> new TaskFailure(
                            errorCode(f, code),
                            f.optionalString("error_message").orElse("")));
            return new TaskView(
                    new TaskId(f.string("task_id")),
                    RuntimeName.fromWire(f.string("runtime")).orElseThrow(() -> f.fail("unknown runtime")),
                    new WorkdirAlias(f.string("workdir_alias")),
                    Math.toIntExact(f.integer("workdir_slot")),
                    f.string("relative_cwd"),
                    TaskProfile.fromWire(f.string("profile")).orElseThrow(() -> f.fail("unknown profile")),
                    status,
                    f.time("created_at"),
                    f.optionalTime("started_at"),
                    f.time("updated_at"),
                    f.optionalTime("completed_at"),
                    f.time("deadline_at"),
                    f.optionalString("continue_from_task_id").map(TaskId::new),
                    f.optionalString("correlation_id").map(CorrelationId::new),
                    f.optionalString("idempotency_key").map(IdempotencyKey::new),
                    result,
                    new StoredManifest(canonical(f.json("manifest")), f.string("manifest_sha256")),
                    failure,
                    f.optionalString("pending_request_id").map(RequestId::new),
                    f.optionalJson("pending_request").map(AgentWire::pending));
        });
    }

    private static ObjectNode pending(PendingRequest p) {
        ObjectNode m = NODES.objectNode();
        m.put("request_id", p.id().value());
        m.put("task_id", p.taskId().value());
        m.put("kind", p.kind().wire());
        m.put("status", p.status().wire());
        m.set("payload", embedded(p.payloadJson()));
        m.put("created_at", time(p.createdAt()));
        m.put("expires_at", p.expiresAt().map(AgentWire::time).orElse(null));
        m.put("resolved_at", p.resolvedAt().map(AgentWire::time).orElse(null));
        m.set("resolution", p.resolutionJson().map(AgentWire::embedded).orElse(NODES.nullNode()));
        return m;
    }

    private static PendingRequest pending(JsonNode node) {
        WireFields f = WireFields.result(node);
        return new PendingRequest(
                new RequestId(f.string("request_id")),
                new TaskId(f.string("task_id")),
                InteractionKind.fromWire(f.string("kind")).orElseThrow(() -> f.fail("unknown kind")),
                RequestStatus.fromWire(f.string("status")).orElseThrow(() -> f.fail("unknown request status")),
                canonical(f.json("payload")),
                f.time("created_at"),
                f.optionalTime("expires_at"),
                f.optionalTime("resolved_at"),
                f.optionalJson("resolution").map(AgentWire::canonical));
    }

    // ---- task.events ----

    static ObjectNode events(EventPage page) {
        ObjectNode out = NODES.objectNode();
        out.put("correlation_id", CorrelationId.wire(page.correlationId()).orElse(null));
        ArrayNode list = out.putArray("events");
        for (TaskEvent e : page.events()) {
            ObjectNode m = list.addObject();
            m.put("event_id", e.eventId());
            m.put("task_id", e.taskId().value());
            m.put("correlation_id", CorrelationId.wire(page.correlationId()).orElse(null));
            m.put("event_type", e.eventType());
            m.set("payload", embedded(e.payloadJson()));
            m.put("created_at", time(e.createdAt()));
            m.put("schema_version", TaskEvent.SCHEMA_VERSION);
        }
        out.put("next_after_event_id", page.nextAfterEventId());
        return out;
    }

    static EventPage events(ObjectNode node) {
        return parsed(() -> {
            WireFields f = WireFields.result(node);
            List<TaskEvent> events = new ArrayList<>();
            for (JsonNode item : f.objects("events")) {
                WireFields e = WireFields.result(item);
                events.add(new TaskEvent(
                        e.integer("event_id"),
                        new TaskId(e.string("task_id")),
                        e.string("event_type"),
                        canonical(e.json("payload")),
                        e.time("created_at")));
            }
            return new EventPage(
                    f.optionalString("correlation_id").map(CorrelationId::new),
                    events,
                    f.integer("next_after_event_id"));
        });
    }

    // ---- task.result.read ----

    static ObjectNode result(ResultRead read) {
        ObjectNode m = NODES.objectNode();
        m.put("text", read.chunk().text());
        m.put("offset_bytes", read.chunk().offsetBytes());
        m.put("next_offset_bytes", read.chunk().nextOffsetBytes());
        m.put("eof", read.chunk().eof());
        m.put("correlation_id", CorrelationId.wire(read.correlationId()).orElse(null));
        return m;
    }

    static ResultRead result(ObjectNode node) {
        return parsed(() -> {
            WireFields f = WireFields.result(node);
            return new ResultRead(
                    new ResultChunk(
                            f.string("text"), f.integer("offset_bytes"), f.integer("next_offset_bytes"), f.bool("eof")),
                    f.optionalString("correlation_id").map(CorrelationId::new));
        });
    }

    // ---- task.approval.respond, task.question.answer ----

    static ObjectNode ack(InteractionAck ack) {
        ObjectNode m = NODES.objectNode();
        m.put("task_id", ack.taskId().value());
        m.put("request_id", ack.requestId().value());
        m.put("resolved", true);
        m.put("correlation_id", CorrelationId.wire(ack.correlationId()).orElse(null));
        return m;
    }

    static InteractionAck ack(ObjectNode node) {
        return parsed(() -> {
            WireFields f = WireFields.result(node);
            if (!f.bool("resolved")) {
                throw f.fail("resolved is true");
            }
            return new InteractionAck(
                    new TaskId(f.string("task_id")),
                    new RequestId(f.string("request_id")),
                    f.optionalString("correlation_id").map(CorrelationId::new));
        });
    }

    // ---- task.message.send ----

    static ObjectNode messageAck(MessageAck ack) {
        ObjectNode m = NODES.objectNode();
        m.put("task_id", ack.taskId().value());
        m.put("accepted", true);
        m.put("correlation_id", CorrelationId.wire(ack.correlationId()).orElse(null));
        return m;
    }

    static MessageAck messageAck(ObjectNode node) {
        return parsed(() -> {
            WireFields f = WireFields.result(node);
            if (!f.bool("accepted")) {
                throw f.fail("accepted is true");
            }
            return new MessageAck(
                    new TaskId(f.string("task_id")),
                    f.optionalString("correlation_id").map(CorrelationId::new));
        });
    }

    // ---- task.cancel ----

    static ObjectNode cancel(CancelOutcome outcome) {
        ObjectNode m = NODES.objectNode();
        m.put("task_id", outcome.taskId().value());
        m.put("status", outcome.status().wire());
        m.put("correlation_id", CorrelationId.wire(outcome.correlationId()).orElse(null));
        return m;
    }

    static CancelOutcome cancel(ObjectNode node) {
        return parsed(() -> {
            WireFields f = WireFields.result(node);
            return new CancelOutcome(
                    new TaskId(f.string("task_id")),
                    status(f, "status"),
                    f.optionalString("correlation_id").map(CorrelationId::new));
        });
    }

    // ---- shared ----

    /** Stored canonical JSON text embedded as a JSON value. */
    static JsonNode embedded(String stored) {
        return BridgeCodec.parse(stored.getBytes(StandardCharsets.UTF_8))
                .orElseThrow(() -> new IllegalStateException("stored JSON could not be read"));
    }

    /** An embedded JSON value back as the canonical text the store keeps (reference §4.4 encoding). */
    static String canonical(JsonNode node) {
        return CanonicalJson.write(value(node));
    }

    private static JsonValue value(JsonNode node) {
        return switch (node.getNodeType()) {
            case NULL -> JsonValue.JsonNull.INSTANCE;
            case BOOLEAN -> new JsonValue.JsonBool(node.booleanValue());
            case NUMBER -> new JsonValue.JsonNumber(node.decimalValue());
            case STRING -> new JsonValue.JsonString(node.textValue());
            case ARRAY -> {
                List<JsonValue> items = new ArrayList<>();
                node.forEach(item -> items.add(value(item)));
                yield new JsonValue.JsonArray(items);
            }
            case OBJECT -> {
                Map<String, JsonValue> members = new LinkedHashMap<>();
                node.properties().forEach(e -> members.put(e.getKey(), value(e.getValue())));
                yield new JsonValue.JsonObject(members);
            }
            case BINARY, MISSING, POJO -> throw new IllegalArgumentException("not a JSON value");
        };
    }

    private static String time(Instant instant) {
        return Timestamps.format(instant);
    }

    private static TaskStatus status(WireFields f, String name) {
        return TaskStatus.fromWire(f.string(name)).orElseThrow(() -> f.fail("unknown " + name));
    }

    private static ErrorCode errorCode(WireFields f, String code) {
        return Arrays.stream(ErrorCode.values())
                .filter(c -> c.wire().equals(code))
                .findFirst()
                .orElseThrow(() -> f.fail("unknown error_code"));
    }

    /** A result that breaks a record's invariant is a protocol error too, never an IllegalArgumentException. */
    private static <T> T parsed(Supplier<T> read) {
        try {
            return read.get();
        } catch (IllegalArgumentException | NullPointerException | ArithmeticException e) {
            throw new ServerFsException(ErrorCode.AGENT_BRIDGE_PROTOCOL_ERROR, "invalid Bridge response: bad record");
        }
    }
}
