package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.Timestamps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Tasks extension's methods ({@code io.modelcontextprotocol/tasks}, ext-tasks specification/draft/tasks.md) over
 * the {@link ToolTasks} of the registered {@link TaskTool}s, and the wire shapes of a task: {@code tasks/get} answers
 * the task's {@code DetailedTask}; {@code tasks/update} hands the responses to keys the task shows outstanding to its
 * source and ignores the rest; {@code tasks/cancel} asks the source to cancel; both acknowledge with an empty result.
 * An unknown task id is -32602. The caller gates on the client's declaration (-32021) first. Each call records one
 * audit event named after its method, with the task id whenever a source knows the task (refusals included).
 */
final class TaskMethods {

    /** The extension's identifier (capabilities.extensions key). */
    static final String EXTENSION = "io.modelcontextprotocol/tasks";

    /** The methods it adds; the removed v1 {@code tasks/result} and {@code tasks/list} stay unknown (-32601). */
    static final Set<String> METHODS = Set.of("tasks/get", "tasks/update", "tasks/cancel");

    private static final Logger log = LoggerFactory.getLogger(TaskMethods.class);

    private final List<ToolTasks> sources;
    private final ToolInvoker audit;

    TaskMethods(ToolRegistry registry, ToolInvoker audit) {
        Set<ToolTasks> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        List<ToolTasks> found = new ArrayList<>();
        for (String name : registry.names()) {
            if (registry.find(name).orElseThrow().tool() instanceof TaskTool tool && distinct.add(tool.tasks())) {
                found.add(tool.tasks());
            }
        }
        this.sources = List.copyOf(found);
        this.audit = Objects.requireNonNull(audit, "audit");
    }

    /** Whether some registered tool runs as a task (only then is the extension announced and its methods known). */
    boolean offered() {
        return !sources.isEmpty();
    }

    ObjectNode answer(JsonNode id, String method, JsonNode params) {
        long started = System.nanoTime();
        JsonNode taskId = params == null ? null : params.get("taskId");
        if (taskId == null || !taskId.isTextual()) {
            recordFailure(method, started, ErrorCode.INVALID_ARGUMENTS.wire(), Map.of());
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, method + " needs params.taskId");
        }
        String task = taskId.textValue();
        Map<String, Object> counters = new LinkedHashMap<>();
        // A refusal names the task once a source knows it; an id no source knows is the caller's text, never logged.
        Map<String, Object> known = Map.of();
        try {
            Optional<Found> found = find(task);
            if (found.isEmpty()) {
                recordFailure(method, started, "NOT_FOUND", known);
                return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Task not found");
            }
            known = Map.of("task_id", task);
            ObjectNode answer = switch (method) {
                case "tasks/get" -> {
                    counters.put("status", status(found.get().task().state()));
                    yield JsonRpc.result(id, detailed(found.get().task()));
                }
                case "tasks/update" -> update(id, found.get(), params, counters);
                case "tasks/cancel" -> {
                    counters.putAll(found.get().source().cancel(task).counters());
                    yield JsonRpc.result(id, Json.object());
                }
                default -> throw new IllegalArgumentException("not a tasks method: " + method);
            };
            if (answer.has("error")) {
                recordFailure(method, started, ErrorCode.INVALID_ARGUMENTS.wire(), known);
            } else {
                counters.putIfAbsent("task_id", task);
                audit.recordEvent(AuditLog.ToolCall.succeeded(
                        method, elapsed(started), Optional.empty(), Optional.empty(), counters));
            }
            return answer;
        } catch (ServerFsException e) {
            recordFailure(method, started, e.code().wire(), known);
            ObjectNode error = JsonRpc.error(id, rpcCode(e), e.agentText());
            ((ObjectNode) error.get("error"))
                    .putObject("data")
                    .put("code", e.code().wire());
            return error;
        } catch (RuntimeException e) {
            recordFailure(method, started, ToolInvoker.INTERNAL_ERROR, known);
            log.atError()
                    .setMessage("task_method_internal_error")
                    .addKeyValue("method", method)
                    .setCause(e)
                    .log();
            return JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "Internal error");
        }
    }

    private record Found(ToolTasks source, ToolTask task) {}

    private Optional<Found> find(String taskId) {
        for (ToolTasks source : sources) {
            Optional<ToolTask> task = source.get(taskId);
            if (task.isPresent()) {
                return Optional.of(new Found(source, task.get()));
            }
        }
        return Optional.empty();
    }

    /**
     * Responses to keys the task does not show outstanding (never issued, already answered, superseded) are ignored,
     * as the extension says a server SHOULD; a response to an outstanding key must be an elicitation result.
     */
    private static ObjectNode update(JsonNode id, Found found, JsonNode params, Map<String, Object> counters) {
        JsonNode responses = params.get("inputResponses");
        if (!(responses instanceof ObjectNode given)) {
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "tasks/update needs params.inputResponses");
        }
        if (!(found.task().state() instanceof ToolTask.State.InputRequired waiting)) {
            return JsonRpc.result(id, Json.object());
        }
        Map<String, ToolTasks.Response> outstanding = new LinkedHashMap<>();
        for (String key : waiting.requests().keySet()) {
            JsonNode response = given.get(key);
            if (response != null) {
                Optional<ToolTasks.Response> parsed = response(response);
                if (parsed.isEmpty()) {
                    return JsonRpc.error(
                            id,
                            JsonRpc.INVALID_PARAMS,
                            "inputResponses." + key + " must be an elicitation result (action accept, decline or"
                                    + " cancel; content an object)");
                }
                outstanding.put(key, parsed.get());
            }
        }
        if (!outstanding.isEmpty()) {
            counters.putAll(
                    found.source().update(found.task().taskId(), outstanding).counters());
        }
        return JsonRpc.result(id, Json.object());
    }

    private static Optional<ToolTasks.Response> response(JsonNode response) {
        JsonNode action = response.get("action");
        JsonNode content = response.get("content");
        if (!(response instanceof ObjectNode)
                || action == null
                || !action.isTextual()
                || (content != null && !content.isNull() && !content.isObject())) {
            return Optional.empty();
        }
        ToolTasks.Action parsed;
        switch (action.textValue()) {
            case "accept" -> parsed = ToolTasks.Action.ACCEPT;
            case "decline" -> parsed = ToolTasks.Action.DECLINE;
            case "cancel" -> parsed = ToolTasks.Action.CANCEL;
            default -> {
                return Optional.empty();
            }
        }
        ObjectNode values = content instanceof ObjectNode object ? object.deepCopy() : Json.object();
        return Optional.of(new ToolTasks.Response(parsed, values));
    }

    /** An answer the task's source refused for its content is the caller's invalid params; anything else is ours. */
    private static int rpcCode(ServerFsException e) {
        return switch (e.code()) {
            case INVALID_ARGUMENTS,
                    INVALID_APPROVAL_DECISION,
                    INVALID_QUESTION_ANSWER,
                    PERMISSION_OUTSIDE_POLICY,
                    AGENT_INTERACTION_TOO_LARGE -> JsonRpc.INVALID_PARAMS;
            default -> JsonRpc.INTERNAL_ERROR;
        };
    }

    private void recordFailure(String method, long started, String code, Map<String, Object> counters) {
        audit.recordEvent(new AuditLog.ToolCall(
                method, elapsed(started), false, Optional.empty(), Optional.empty(), Optional.of(code), counters));
    }

    private static Duration elapsed(long started) {
        return Duration.ofNanos(System.nanoTime() - started);
    }

    // ----------------------------------------------------------------------------------------- wire shapes

    /** A {@code CreateTaskResult}: the task's fields flat at the top with {@code resultType: "task"}. */
    static ObjectNode created(ToolTask task) {
        ObjectNode result = Json.object();
        result.put("resultType", "task");
        fields(result, task);
        return result;
    }

    /** A {@code DetailedTask}: the task's fields plus what its status inlines. */
    static ObjectNode detailed(ToolTask task) {
        ObjectNode result = Json.object();
        fields(result, task);
        switch (task.state()) {
            case ToolTask.State.Working w -> {}
            case ToolTask.State.Cancelled c -> {}
            case ToolTask.State.InputRequired r -> {
                ObjectNode requests = result.putObject("inputRequests");
                r.requests().forEach((key, form) -> {
                    ObjectNode request = requests.putObject(key);
                    request.put("method", "elicitation/create");
                    ObjectNode p = request.putObject("params");
                    p.put("mode", "form");
                    p.put("message", form.message());
                    p.set("requestedSchema", form.requestedSchema().deepCopy());
                });
            }
            case ToolTask.State.Completed c -> result.set("result", ToolInvoker.wire(c.result()));
            case ToolTask.State.CompletedWithError e -> result.set("result", ToolInvoker.toolError(e.error()));
            case ToolTask.State.Failed f -> {
                ObjectNode error = result.putObject("error");
                error.put("code", JsonRpc.INTERNAL_ERROR);
                error.put("message", f.code().wire() + ": " + f.message());
                error.putObject("data").put("code", f.code().wire());
            }
        }
        return result;
    }

    private static void fields(ObjectNode target, ToolTask task) {
        target.put("taskId", task.taskId());
        target.put("status", status(task.state()));
        task.statusMessage().ifPresent(m -> target.put("statusMessage", m));
        target.put("createdAt", Timestamps.format(task.createdAt()));
        target.put("lastUpdatedAt", Timestamps.format(task.lastUpdatedAt()));
        if (task.ttl().isPresent()) {
            target.put("ttlMs", task.ttl().get().toMillis());
        } else {
            target.putNull("ttlMs");
        }
        target.put("pollIntervalMs", task.pollInterval().toMillis());
    }

    /** The extension's status name of a state. */
    static String status(ToolTask.State state) {
        return switch (state) {
            case ToolTask.State.Working w -> "working";
            case ToolTask.State.InputRequired r -> "input_required";
            case ToolTask.State.Completed c -> "completed";
            case ToolTask.State.CompletedWithError e -> "completed";
            case ToolTask.State.Failed f -> "failed";
            case ToolTask.State.Cancelled c -> "cancelled";
        };
    }
}
