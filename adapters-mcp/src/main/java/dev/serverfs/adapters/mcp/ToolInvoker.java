package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.networknt.schema.Error;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.workdir.AgentText;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPath;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@code tools/call} (CONTRACT.md §2): an unknown tool, or {@code arguments} that are not an object, →
 * JSON-RPC -32602; unknown top-level arguments are dropped (never reach the tool); known ones failing the published
 * schema, and any {@link ServerFsException}, → tool result with {@code isError: true} and text {@code CODE: message}
 * ({@code INVALID_ARGUMENTS} for the schema, MCP 2025-11-25 SEP-1303); any other exception → -32603 with a generic
 * message, details only in the log. Emits exactly one {@code tool_call} audit event per call of a known tool; a
 * failing audit log never changes the result. A {@link TaskTool} called by a stateless request that declared the Tasks
 * extension ({@link RequestMeta#CURRENT}) starts a task instead and the result is its handle.
 */
final class ToolInvoker {

    private static final Logger log = LoggerFactory.getLogger(ToolInvoker.class);
    private static final int MAX_SCHEMA_MESSAGES = 5;
    private static final int MAX_AUDITED_PATH = 4096;

    /** The audit code of a call that failed outside the tool with a server fault (no {@code ErrorCode} exists). */
    static final String INTERNAL_ERROR = "INTERNAL_ERROR";

    /** The audit code of a call a {@code notifications/cancelled} stopped. */
    static final String CANCELLED = "CANCELLED";

    /**
     * The JSON-RPC error of a cancelled call: what the reference's Python SDK answers ({@code ErrorData(code=0,
     * message="Request cancelled")}); a client that cancelled ignores it (basic/utilities/cancellation).
     */
    static final int REQUEST_CANCELLED = 0;

    /** The {@code schema_version} of every Agent tool's audit event (reference §3). */
    static final int AGENT_AUDIT_SCHEMA_VERSION = 1;

    private final ToolRegistry registry;
    private final AuditLog audit;

    ToolInvoker(ToolRegistry registry, AuditLog audit) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.audit = Objects.requireNonNull(audit, "audit");
    }

    /** The outcome of one call: a {@code CallToolResult} or a JSON-RPC error. */
    sealed interface Outcome {
        /**
         * A {@code CallToolResult} as it goes on the wire: {@code structuredContent}, when present, is the payload's
         * JSON held as a raw value, written once and never rebuilt as a tree.
         */
        record Result(ObjectNode wire) implements Outcome {
            /** The same result as a plain tree (a re-read of the wire form), for callers that inspect it. */
            ObjectNode result() {
                return (ObjectNode) Json.read(Json.writeBytes(wire));
            }
        }

        record Failure(int code, String message) implements Outcome {}

        /** The tool needs client input first (2026-07-28 multi round-trip requests); the transport answers it. */
        record InputNeeded(InputRequired needed) implements Outcome {}
    }

    Outcome call(String name, JsonNode rawArguments) {
        return call(name, rawArguments, InputRound.NONE);
    }

    /** As {@link #call(String, JsonNode)}, as one round of a multi round-trip call that brings {@code round}. */
    Outcome call(String name, JsonNode rawArguments, InputRound round) {
        Optional<ToolRegistry.RegisteredTool> found = registry.find(name);
        if (found.isEmpty()) {
            return new Outcome.Failure(JsonRpc.INVALID_PARAMS, "Unknown tool: " + AgentText.printable(name));
        }
        ToolRegistry.RegisteredTool tool = found.get();
        long started = System.nanoTime();
        ObjectNode arguments = rawArguments == null || rawArguments.isNull() ? Json.object() : null;
        if (arguments == null) {
            if (!(rawArguments instanceof ObjectNode object)) {
                // Not a tool input at all: the CallToolRequest itself is malformed (its arguments are an object).
                audit(tool, started, Optional.empty(), Optional.empty(), Json.object(), invalidArguments());
                return new Outcome.Failure(JsonRpc.INVALID_PARAMS, "Tool arguments must be an object");
            }
            arguments = tool.knownArguments(object);
        }
        // As the agent sent them: the audit event takes what it may name of them (audited*), when it needs them.
        Optional<String> workdir = textArgument(arguments, "workdir");
        Optional<String> path = textArgument(arguments, "path");
        try {
            List<Error> errors;
            try {
                errors = tool.inputSchema().validate(arguments);
            } catch (RuntimeException e) {
                // e.g. 1e400, a double beyond range, compared with an enum (found by McpFuzzTest): the validator
                // cannot judge the value, so the arguments are refused as invalid, never a server fault
                throw new ServerFsException(
                        ErrorCode.INVALID_ARGUMENTS,
                        "Invalid arguments for tool " + name + ": a value is out of range");
            }
            if (!errors.isEmpty()) {
                throw new ServerFsException(ErrorCode.INVALID_ARGUMENTS, schemaMessage(name, errors));
            }
            if (tool.tool() instanceof TaskTool taskTool && declaresTasks()) {
                return startTask(tool, taskTool, started, arguments, round, workdir, path);
            }
            ToolResult result;
            switch (tool.tool().reply(new ToolArguments(arguments, ResponseStream.progress()), round)) {
                case ToolReply.Complete complete -> result = complete.result();
                case InputRequired needed -> {
                    return inputNeeded(tool, started, workdir, path, needed);
                }
            }
            ObjectNode callResult = wire(result);
            record(() -> AuditLog.ToolCall.succeeded(
                    name,
                    elapsed(started),
                    result.workdir().or(() -> auditedWorkdir(workdir)),
                    result.path().or(() -> auditedPath(path)),
                    withSurfaceCounters(tool, result.counters())));
            return new Outcome.Result(callResult);
        } catch (ServerFsException e) {
            audit(tool, started, workdir, path, arguments, e.code().wire());
            return new Outcome.Result(toolError(e));
        } catch (CancellationException e) {
            // A notifications/cancelled stopped it (InFlightCalls): answered as the reference's SDK answers one.
            Thread.interrupted();
            audit(tool, started, workdir, path, arguments, CANCELLED);
            return new Outcome.Failure(REQUEST_CANCELLED, "Request cancelled");
        } catch (RuntimeException e) {
            audit(tool, started, workdir, path, arguments, INTERNAL_ERROR);
            log.atError()
                    .setMessage("tool_internal_error")
                    .addKeyValue("tool", name)
                    .setCause(e)
                    .log();
            return new Outcome.Failure(JsonRpc.INTERNAL_ERROR, "Internal error");
        }
    }

    /**
     * Whether the request being served is a stateless one that declared the Tasks extension: only then may a {@link
     * TaskTool} answer a task handle (ext-tasks: never to a client that did not declare it on that request).
     */
    private static boolean declaresTasks() {
        return RequestMeta.CURRENT.isBound() && RequestMeta.CURRENT.get().declaresExtension(TaskMethods.EXTENSION);
    }

    /**
     * Starts {@code taskTool}'s task and answers its handle, or the input it needs first (a round like a plain call's,
     * no task yet); the audit event is the one the plain call would record.
     */
    private Outcome startTask(
            ToolRegistry.RegisteredTool tool,
            TaskTool taskTool,
            long started,
            ObjectNode arguments,
            InputRound round,
            Optional<String> workdir,
            Optional<String> path) {
        TaskTool.Started task;
        switch (taskTool.start(new ToolArguments(arguments), round)) {
            case TaskTool.Started s -> task = s;
            case InputRequired needed -> {
                return inputNeeded(tool, started, workdir, path, needed);
            }
        }
        ToolTask created = readBack(taskTool.tasks(), task.taskId());
        ToolResult audited = task.audit();
        record(() -> AuditLog.ToolCall.succeeded(
                tool.spec().name(),
                elapsed(started),
                audited.workdir().or(() -> auditedWorkdir(workdir)),
                audited.path().or(() -> auditedPath(path)),
                withSurfaceCounters(tool, audited.counters())));
        return new Outcome.Result(TaskMethods.created(created));
    }

    /**
     * The task just started, as its source shows it; when that read fails (the source, a Bridge say, went away right
     * after the task was created), the task as far as it is known ({@link ToolTask#unread}): the client keeps its id
     * and polls, instead of an error for a task that exists.
     */
    private static ToolTask readBack(ToolTasks tasks, String taskId) {
        try {
            Optional<ToolTask> read = tasks.get(taskId);
            if (read.isPresent()) {
                return read.get();
            }
        } catch (ServerFsException e) {
            // answered below
        }
        return ToolTask.unread(taskId, Instant.now());
    }

    /** A round that asks for input is a successful call of the tool; the retry is another call. */
    private Outcome inputNeeded(
            ToolRegistry.RegisteredTool tool,
            long started,
            Optional<String> workdir,
            Optional<String> path,
            InputRequired needed) {
        record(() -> AuditLog.ToolCall.succeeded(
                tool.spec().name(),
                elapsed(started),
                auditedWorkdir(workdir),
                auditedPath(path),
                withSurfaceCounters(tool, Map.of())));
        return new Outcome.InputNeeded(needed);
    }

    /** A successful {@code CallToolResult} as it goes on the wire. */
    static ObjectNode wire(ToolResult result) {
        // One serialisation of the payload serves both channels (reference §2.1: the text is the same JSON).
        byte[] structured = structured(result.payload());
        ObjectNode callResult = Json.object();
        ArrayNode content = callResult.putArray("content");
        if (result.content().isPresent()) {
            result.content().get().forEach(block -> WireContent.add(content, block));
        } else {
            defaultContent(content, result, structured);
        }
        callResult.set("structuredContent", EncodedJson.rawValue(structured));
        callResult.put("isError", false);
        return callResult;
    }

    /** A blob first when there is one, then the payload as a JSON text block (or the tool's own text). */
    private static void defaultContent(ArrayNode content, ToolResult result, byte[] structured) {
        result.blob()
                .ifPresent(blob -> content.addObject()
                        .put("type", "resource")
                        .putObject("resource")
                        .put("uri", blob.uri())
                        .put("mimeType", blob.mimeType())
                        .set("blob", Base64Json.of(blob.content())));
        // The payload as a JSON text block too, after a blob (issue 10 §14: clients that show the model only
        // the content, such as Gemini CLI, lost size, sha256 and revision).
        JsonNode text = result.text().<JsonNode>map(TextNode::valueOf).orElseGet(() -> EncodedJson.string(structured));
        content.addObject().put("type", "text").set("text", text);
    }

    /** A tool error ({@code isError: true}, text {@code CODE: message}) as it goes on the wire. */
    static ObjectNode toolError(ServerFsException e) {
        ObjectNode callResult = Json.object();
        callResult.putArray("content").addObject().put("type", "text").put("text", e.agentText());
        callResult.put("isError", true);
        return callResult;
    }

    /** Records an event of a request that is not a tool call (the Tasks extension's methods), under the same rule. */
    void recordEvent(AuditLog.ToolCall event) {
        record(() -> event);
    }

    private void audit(
            ToolRegistry.RegisteredTool tool,
            long started,
            Optional<String> workdir,
            Optional<String> path,
            ObjectNode arguments,
            String code) {
        record(() -> new AuditLog.ToolCall(
                tool.spec().name(),
                elapsed(started),
                false,
                auditedWorkdir(workdir),
                auditedPath(path),
                Optional.of(code),
                failureCounters(tool, arguments)));
    }

    /**
     * Emits one audit event. Issue 10 §2: no failure of building or writing the event may change the tool's result;
     * it is logged (without the event, which may name a path) and the call answers as it would have.
     */
    private void record(Supplier<AuditLog.ToolCall> event) {
        try {
            audit.toolCall(event.get());
        } catch (RuntimeException e) {
            log.atError().setMessage("audit_failed").setCause(e).log();
        }
    }

    private static String invalidArguments() {
        return ErrorCode.INVALID_ARGUMENTS.wire();
    }

    /**
     * What a failed call's audit event carries besides the code: for Agent tools the task id when the caller named a
     * well-formed one, as their successful calls do.
     */
    private static Map<String, Object> failureCounters(ToolRegistry.RegisteredTool tool, ObjectNode arguments) {
        Map<String, Object> counters = new LinkedHashMap<>();
        if (tool.spec().surface() == ToolSurface.AGENT) {
            textArgument(arguments, "task_id").filter(TaskId::isValid).ifPresent(id -> counters.put("task_id", id));
        }
        return withSurfaceCounters(tool, counters);
    }

    /** Every audit event of an Agent tool, failed or not, starts with {@code schema_version: 1} (reference §3). */
    private static Map<String, Object> withSurfaceCounters(
            ToolRegistry.RegisteredTool tool, Map<String, Object> counters) {
        if (tool.spec().surface() != ToolSurface.AGENT) {
            return counters;
        }
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("schema_version", AGENT_AUDIT_SCHEMA_VERSION);
        all.putAll(counters);
        return all;
    }

    private static byte[] structured(Object payload) {
        byte[] json = Json.writePayload(payload);
        if (json.length == 0 || json[0] != '{') {
            // MCP: structuredContent is a JSON object.
            throw new IllegalStateException("a tool payload must serialise to a JSON object");
        }
        return json;
    }

    /**
     * What an audit event may name of an agent's {@code path} argument: its workdir-relative normal form (reference
     * §2.0: the agent-visible path), never an absolute or escaping one (a host path, reference §12), nor one longer
     * than any file's (PATH_MAX): one request could otherwise write megabytes to the log.
     */
    private static Optional<String> auditedPath(Optional<String> raw) {
        return raw.flatMap(
                        p -> plainRelative(p) ? raw : PathPolicy.normalised(p).map(WorkdirPath::display))
                .filter(p -> p.length() <= MAX_AUDITED_PATH);
    }

    /** A path that, as written, names nothing above the workdir: audited as the agent sent it, with no copy. */
    private static boolean plainRelative(String path) {
        return !path.startsWith("/")
                && !path.startsWith("~")
                && !path.contains("..")
                && path.indexOf('\0') < 0
                && AgentText.wellFormed(path);
    }

    /** An agent's {@code workdir} argument as an audit event may name it: only when it could be an alias. */
    private static Optional<String> auditedWorkdir(Optional<String> raw) {
        return raw.filter(WorkdirAlias::isValid);
    }

    private static Optional<String> textArgument(ObjectNode arguments, String name) {
        JsonNode value = arguments.get(name);
        return value != null && value.isTextual() ? Optional.of(value.textValue()) : Optional.empty();
    }

    private static Duration elapsed(long started) {
        return Duration.ofNanos(System.nanoTime() - started);
    }

    private static String schemaMessage(String tool, List<Error> errors) {
        String details = errors.stream()
                .limit(MAX_SCHEMA_MESSAGES)
                .map(ToolInvoker::describe)
                .collect(Collectors.joining("; "));
        return "Invalid arguments for tool " + tool + ": " + details;
    }

    private static String describe(Error error) {
        String location = error.getInstanceLocation() == null
                ? ""
                : error.getInstanceLocation().toString();
        String message = error.getMessage();
        return message.startsWith(location) ? message : location + ": " + message;
    }
}
