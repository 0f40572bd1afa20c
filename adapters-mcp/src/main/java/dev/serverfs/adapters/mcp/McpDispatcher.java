package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * JSON-RPC methods of one MCP server (spec 2025-11-25 lifecycle, tools, ping): {@code initialize} negotiates the
 * version and opens a session; {@code tools/list} and {@code tools/call} go to the registry; resources, templates
 * and {@code resources/read} go to the extra {@link ResourceProvider} and the file template when given; prompts and
 * {@code completion/complete} are served only when {@link McpFeatures} has them; anything else is -32601. In the
 * stateless era a request that declares the Tasks extension may get a task handle from a {@link TaskTool}, and
 * {@code tasks/*} go to {@link TaskMethods} (the session era has no Tasks extension).
 */
final class McpDispatcher {

    static final String SERVER_NAME = "ServerFS";

    /** How long a stateless client may reuse discover and list results: they change only with a restart. */
    static final long LIST_TTL_MS = 60_000;

    /** 2026-07-28 schema: the request needs a client capability the client did not declare (HTTP 400). */
    static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;

    private final ToolRegistry registry;
    private final ToolInvoker invoker;
    private final McpSessions sessions;
    private final String serverVersion;
    private final String instructions;
    private final Optional<FileResourceTemplate> resources;
    private final TaskMethods tasks;
    private final InputRoundTrips rounds = new InputRoundTrips(Clock.systemUTC());
    private final PromptRegistry prompts;
    private final Optional<ResourceProvider> extraResources;
    private final Optional<CompletionProvider> completions;

    McpDispatcher(
            ToolRegistry registry,
            ToolInvoker invoker,
            McpSessions sessions,
            String serverVersion,
            Set<ToolSurface> surfaces) {
        this(registry, invoker, sessions, serverVersion, surfaces, Optional.empty());
    }

    McpDispatcher(
            ToolRegistry registry,
            ToolInvoker invoker,
            McpSessions sessions,
            String serverVersion,
            Set<ToolSurface> surfaces,
            Optional<FileResourceTemplate> resources) {
        this(registry, invoker, sessions, serverVersion, surfaces, resources, McpFeatures.NONE);
    }

    McpDispatcher(
            ToolRegistry registry,
            ToolInvoker invoker,
            McpSessions sessions,
            String serverVersion,
            Set<ToolSurface> surfaces,
            Optional<FileResourceTemplate> resources,
            McpFeatures features) {
        this.resources = Objects.requireNonNull(resources, "resources");
        this.prompts = new PromptRegistry(features.prompts());
        this.extraResources = features.resources();
        this.completions = features.completions();
        this.registry = Objects.requireNonNull(registry, "registry");
        this.invoker = Objects.requireNonNull(invoker, "invoker");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.serverVersion = Objects.requireNonNull(serverVersion, "serverVersion");
        this.instructions = Instructions.text(surfaces);
        this.tasks = new TaskMethods(registry, invoker);
    }

    /**
     * The answer to an {@code initialize} request, and the session it opened when it succeeded; {@code full} when
     * no session could be opened because the session table is full.
     */
    record Initialized(ObjectNode response, Optional<McpSession> session, boolean full) {}

    Initialized initialize(JsonNode id, JsonNode params) {
        JsonNode requested = params == null ? null : params.get("protocolVersion");
        if (!(params instanceof ObjectNode) || requested == null || !requested.isTextual()) {
            return new Initialized(
                    JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "initialize needs params.protocolVersion"),
                    Optional.empty(),
                    false);
        }
        String version = ProtocolVersions.negotiate(requested.textValue());
        Optional<McpSession> session = sessions.create(version);
        if (session.isEmpty()) {
            return new Initialized(
                    JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "Server busy: too many open sessions, retry later"),
                    Optional.empty(),
                    true);
        }
        ObjectNode result = Json.object();
        result.put("protocolVersion", version);
        ObjectNode capabilities = result.putObject("capabilities");
        capabilities.putObject("tools").put("listChanged", false);
        if (!prompts.isEmpty()) {
            capabilities.putObject("prompts").put("listChanged", false);
        }
        if (hasResources()) {
            capabilities.putObject("resources").put("subscribe", false).put("listChanged", false);
        }
        if (completions.isPresent()) {
            capabilities.putObject("completions");
        }
        serverInfo(result.putObject("serverInfo"));
        result.put("instructions", instructions);
        return new Initialized(JsonRpc.result(id, result), session, false);
    }

    private void serverInfo(ObjectNode target) {
        target.put("name", SERVER_NAME);
        target.put("version", serverVersion);
    }

    /** An answer and the HTTP status it goes with (2026-07-28 transports: 404 for an unknown method). */
    record Answer(int status, ObjectNode body) {}

    /**
     * A stateless (2026-07-28) request whose {@code _meta} the transport has checked. Methods the revision removed
     * ({@code initialize}, {@code ping}, {@code logging/setLevel}, resource subscriptions) are unknown here; every
     * result carries {@code resultType}, and discover, lists and {@code resources/read} carry caching hints
     * (server/utilities/caching). {@code meta} is the client's per-request declaration that capability-dependent
     * answers consult.
     */
    Answer stateless(RequestMeta meta, JsonNode id, String method, JsonNode params) {
        Objects.requireNonNull(meta, "meta");
        ObjectNode answer = switch (method) {
            case "server/discover" -> cacheable(JsonRpc.result(id, discover()), LIST_TTL_MS);
            case "tools/list" -> cacheable(listTools(id, params), LIST_TTL_MS);
            case "tools/call" -> {
                List<String> missing = missingCapabilities(meta, params);
                yield missing.isEmpty() ? statelessCall(meta, id, params) : missingCapabilityError(id, missing);
            }
            case "prompts/list" -> cacheable(listPrompts(id, params), LIST_TTL_MS);
            // Declared by discover even with no prompts, so the method exists: an unknown name is -32602, not 404.
            case "prompts/get" ->
                roundTrip(
                        meta,
                        id,
                        "prompts/get",
                        params,
                        (round, inputNeeded) -> prompts.get(id, params, round, inputNeeded));
            case "completion/complete" ->
                completions.map(c -> Completions.complete(id, params, c)).orElse(null);
            case "resources/list" -> cacheable(listResources(id, params), LIST_TTL_MS);
            case "resources/templates/list" -> cacheable(listTemplates(id, params), LIST_TTL_MS);
            case "resources/read" -> cacheable(statelessRead(id, params), 0);
            case "tasks/get", "tasks/update", "tasks/cancel" -> {
                if (!tasks.offered()) {
                    yield null;
                }
                // ext-tasks "Error Handling": a client that did not declare the extension gets -32021 for these.
                yield meta.declaresExtension(TaskMethods.EXTENSION)
                        ? tasks.answer(id, method, params)
                        : missingCapabilityError(id, List.of(TaskMethods.EXTENSION));
            }
            default -> null;
        };
        if (answer == null) {
            return new Answer(404, JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND, "Method not found"));
        }
        if (answer.path("error").path("code").asInt() == MISSING_REQUIRED_CLIENT_CAPABILITY) {
            return new Answer(400, answer);
        }
        if (answer.get("result") instanceof ObjectNode result && !result.has("resultType")) {
            result.put("resultType", "complete");
        }
        return new Answer(200, answer);
    }

    /** The client capabilities the named tool needs and this request's {@code _meta} did not declare, sorted. */
    private List<String> missingCapabilities(RequestMeta meta, JsonNode params) {
        JsonNode name = params == null ? null : params.get("name");
        ToolRegistry.RegisteredTool tool = name != null && name.isTextual()
                ? registry.find(name.textValue()).orElse(null)
                : null;
        if (tool == null) {
            return List.of();
        }
        List<String> missing = new ArrayList<>(0);
        for (String capability : tool.tool().requiredClientCapabilities()) {
            if (!meta.declares(capability)) {
                missing.add(capability);
            }
        }
        missing.sort(null);
        if (tool.tool() instanceof TaskTool task
                && task.requiresTask()
                && !meta.declaresExtension(TaskMethods.EXTENSION)) {
            missing.add(TaskMethods.EXTENSION);
        }
        return missing;
    }

    /** 2026-07-28 schema MissingRequiredClientCapabilityError: {@code data.requiredCapabilities} is a ClientCapabilities object. */
    static ObjectNode missingCapabilityError(JsonNode id, List<String> missing) {
        ObjectNode error = JsonRpc.error(
                id,
                MISSING_REQUIRED_CLIENT_CAPABILITY,
                "Missing required client capability: " + String.join(", ", missing));
        ObjectNode required =
                ((ObjectNode) error.get("error")).putObject("data").putObject("requiredCapabilities");
        for (String capability : missing) {
            // An extension goes under "extensions", as ext-tasks "Capability Negotiation" shows it.
            if (capability.equals(TaskMethods.EXTENSION)) {
                required.putObject("extensions").putObject(capability);
            } else {
                required.putObject(capability);
            }
        }
        return error;
    }

    private ObjectNode discover() {
        ObjectNode result = Json.object();
        ProtocolVersions.ALL.forEach(result.putArray("supportedVersions")::add);
        ObjectNode capabilities = result.putObject("capabilities");
        capabilities.putObject("tools").put("listChanged", false);
        // Always: 2026-07-28 clients score prompts/list's caching hints, so it answers (an empty list) and is declared.
        capabilities.putObject("prompts").put("listChanged", false);
        if (hasResources()) {
            capabilities.putObject("resources").put("listChanged", false);
        }
        if (completions.isPresent()) {
            capabilities.putObject("completions");
        }
        if (tasks.offered()) {
            capabilities.putObject("extensions").putObject(TaskMethods.EXTENSION);
        }
        result.put("instructions", instructions);
        serverInfo(result.putObject("_meta").putObject(RequestMeta.SERVER_INFO));
        return result;
    }

    /** 2026-07-28 server/resources: a missing resource is -32602 with the URI in {@code data}, no longer -32002. */
    private ObjectNode statelessRead(JsonNode id, JsonNode params) {
        ObjectNode answer = readResource(id, params);
        if (answer.get("error") instanceof ObjectNode error
                && error.path("code").asInt() == FileResourceTemplate.RESOURCE_NOT_FOUND) {
            error.put("code", JsonRpc.INVALID_PARAMS);
            error.putObject("data").set("uri", params == null ? null : params.get("uri"));
        }
        return answer;
    }

    /**
     * Caching hints on a successful result. {@code private}: what a client may see depends on its bearer token and
     * the server's configuration; lists live as long as the configuration, a file's text may change at any time.
     */
    private static ObjectNode cacheable(ObjectNode answer, long ttlMs) {
        if (answer.get("result") instanceof ObjectNode result) {
            result.put("ttlMs", ttlMs);
            result.put("cacheScope", "private");
        }
        return answer;
    }

    /** A tool's {@code x-mcp-header} names and the argument path each mirrors (checked before a stateless call). */
    Map<String, List<String>> paramHeaders(String tool) {
        return registry.paramHeaders(tool);
    }

    /**
     * Notifications and client responses need no answer; {@code notifications/initialized} completes the handshake,
     * {@code notifications/cancelled} stops the session's request it names if that one can be stopped ({@link
     * #cancellable}).
     */
    void notification(McpSession session, String method, JsonNode params) {
        if ("notifications/initialized".equals(method)) {
            session.markInitialized();
        } else if ("notifications/cancelled".equals(method) && params != null) {
            session.calls().cancel(params.get("requestId"));
        }
    }

    ObjectNode request(McpSession session, JsonNode id, String method, JsonNode params) {
        if (params != null && !params.isNull() && !params.isObject()) {
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "params must be an object");
        }
        return switch (method) {
            case "ping" -> JsonRpc.result(id, Json.object());
            case "initialize" -> JsonRpc.error(id, JsonRpc.INVALID_REQUEST, "session is already initialized");
            case "tools/list" -> listTools(id, params);
            case "tools/call" -> callTool(id, params);
            case "resources/list" -> listResources(id, params);
            case "resources/templates/list" -> listTemplates(id, params);
            case "resources/read" -> readResource(id, params);
            case "prompts/list" -> prompts.isEmpty() ? methodNotFound(id) : listPrompts(id, params);
            case "prompts/get" ->
                prompts.isEmpty()
                        ? methodNotFound(id)
                        : prompts.get(id, params, InputRound.NONE, needed -> needsStateless(id));
            case "completion/complete" ->
                completions.map(c -> Completions.complete(id, params, c)).orElseGet(() -> methodNotFound(id));
            default -> methodNotFound(id);
        };
    }

    private static ObjectNode methodNotFound(JsonNode id) {
        return JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND, "Method not found");
    }

    private boolean hasResources() {
        return resources.isPresent() || extraResources.isPresent();
    }

    private ObjectNode listPrompts(JsonNode id, JsonNode params) {
        return prompts.isEmpty() || hasCursor(params) ? emptyList(id, params, "prompts") : prompts.list(id);
    }

    private ObjectNode listResources(JsonNode id, JsonNode params) {
        if (extraResources.isEmpty() || hasCursor(params)) {
            return emptyList(id, params, "resources");
        }
        ObjectNode result = Json.object();
        ArrayNode list = result.putArray("resources");
        extraResources
                .get()
                .resources()
                .forEach(r -> list.addObject()
                        .put("uri", r.uri())
                        .put("name", r.name())
                        .put("description", r.description())
                        .put("mimeType", r.mimeType()));
        return JsonRpc.result(id, result);
    }

    private ObjectNode listTools(JsonNode id, JsonNode params) {
        if (hasCursor(params)) {
            // We never hand out a cursor, so any cursor is invalid (spec: pagination, -32602).
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Invalid cursor");
        }
        ObjectNode result = Json.object();
        result.set("tools", registry.descriptors());
        return JsonRpc.result(id, result);
    }

    /**
     * Whether a cancellation may interrupt this request: a {@code tools/call} of a read-only file tool, whose work
     * stops cleanly at an interrupt (a search waiting on its slot, a long read) and changes nothing. Mutations,
     * binary transfers and the Agent tools (the Bridge's socket, the task store) always run to their end.
     */
    boolean cancellable(String method, JsonNode params) {
        if (!"tools/call".equals(method) || params == null || !(params.get("name") instanceof JsonNode name)) {
            return false;
        }
        return name.isTextual()
                && registry.find(name.textValue())
                        .map(tool -> tool.spec().surface() == ToolSurface.FILESYSTEM
                                && tool.spec().annotations().readOnlyHint())
                        .orElse(false);
    }

    private ObjectNode callTool(JsonNode id, JsonNode params) {
        JsonNode name = params == null ? null : params.get("name");
        if (name == null || !name.isTextual()) {
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "tools/call needs params.name");
        }
        return answer(id, invoker.call(name.textValue(), params.get("arguments")), needed -> needsStateless(id));
    }

    /** A session's round declares no input kind, so a tool or prompt asks for input there only by mistake. */
    private static ObjectNode needsStateless(JsonNode id) {
        return JsonRpc.error(
                id, JsonRpc.INVALID_REQUEST, "This call needs client input, which needs protocol version 2026-07-28");
    }

    /** A stateless {@code tools/call}, one round of a possible multi round-trip call. */
    private ObjectNode statelessCall(RequestMeta meta, JsonNode id, JsonNode params) {
        return roundTrip(
                meta,
                id,
                "tools/call",
                params,
                (round, inputNeeded) -> answer(
                        id, invoker.call(params.get("name").textValue(), params.get("arguments"), round), inputNeeded));
    }

    /**
     * One round of a stateless request named by {@code params.name} that may answer {@code input_required} (2026-07-28
     * basic/patterns/mrtr): the retry's responses and verified state go to {@code handler} as its round, an answer
     * that needs input goes back sealed to this method, name and arguments.
     */
    private ObjectNode roundTrip(
            RequestMeta meta,
            JsonNode id,
            String method,
            JsonNode params,
            BiFunction<InputRound, Function<InputRequired, ObjectNode>, ObjectNode> handler) {
        JsonNode name = params == null ? null : params.get("name");
        if (name == null || !name.isTextual()) {
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, method + " needs params.name");
        }
        // The arguments' digest only when a round needs it (a state to verify or to seal): most calls carry neither.
        Supplier<RequestStateCodec.Binding> binding =
                () -> RequestStateCodec.Binding.of(method, name.textValue(), params.get("arguments"));
        return switch (rounds.open(id, meta, binding, params)) {
            case InputRoundTrips.Opened.Refused refused -> refused.error();
            case InputRoundTrips.Opened.Round round ->
                handler.apply(round.round(), needed -> rounds.answer(id, meta, binding, needed));
        };
    }

    private static ObjectNode answer(
            JsonNode id, ToolInvoker.Outcome outcome, Function<InputRequired, ObjectNode> inputNeeded) {
        return switch (outcome) {
            case ToolInvoker.Outcome.Result r -> JsonRpc.result(id, r.wire());
            case ToolInvoker.Outcome.Failure f -> JsonRpc.error(id, f.code(), f.message());
            case ToolInvoker.Outcome.InputNeeded n -> inputNeeded.apply(n.needed());
        };
    }

    private ObjectNode listTemplates(JsonNode id, JsonNode params) {
        if (!hasResources() || hasCursor(params)) {
            return emptyList(id, params, "resourceTemplates");
        }
        ObjectNode result = Json.object();
        ArrayNode list = resources.map(FileResourceTemplate::templates).orElseGet(Json.WIRE::createArrayNode);
        extraResources.ifPresent(extra -> extra.templates()
                .forEach(t -> list.addObject()
                        .put("uriTemplate", t.uriTemplate())
                        .put("name", t.name())
                        .put("description", t.description())
                        .put("mimeType", t.mimeType())));
        result.set("resourceTemplates", list);
        return JsonRpc.result(id, result);
    }

    private ObjectNode readResource(JsonNode id, JsonNode params) {
        JsonNode uri = params == null ? null : params.get("uri");
        Optional<List<ResourceContents>> extra = extraResources.isPresent() && uri != null && uri.isTextual()
                ? extraResources.get().read(uri.textValue())
                : Optional.empty();
        if (extra.isPresent()) {
            ObjectNode result = Json.object();
            ArrayNode contents = result.putArray("contents");
            extra.get().forEach(c -> WireContent.contents(contents.addObject(), c));
            return JsonRpc.result(id, result);
        }
        if (resources.isEmpty()) {
            return JsonRpc.error(id, FileResourceTemplate.RESOURCE_NOT_FOUND, "Resource not found");
        }
        return resources.get().read(id, params);
    }

    private static ObjectNode emptyList(JsonNode id, JsonNode params, String field) {
        if (hasCursor(params)) {
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Invalid cursor");
        }
        ObjectNode result = Json.object();
        result.putArray(field);
        return JsonRpc.result(id, result);
    }

    private static boolean hasCursor(JsonNode params) {
        return params != null && params.hasNonNull("cursor");
    }
}
