package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * JSON-RPC methods of one MCP server (spec 2025-11-25 lifecycle, tools, ping): {@code initialize} negotiates the
 * version and opens a session; {@code tools/list} and {@code tools/call} go to the registry; resources are listed
 * (none), resource templates and {@code resources/read} go to the file template when one is given; anything
 * else is -32601.
 */
final class McpDispatcher {

    static final String SERVER_NAME = "ServerFS";

    private final ToolRegistry registry;
    private final ToolInvoker invoker;
    private final McpSessions sessions;
    private final String serverVersion;
    private final String instructions;
    private final Optional<FileResourceTemplate> resources;

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
        this.resources = Objects.requireNonNull(resources, "resources");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.invoker = Objects.requireNonNull(invoker, "invoker");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.serverVersion = Objects.requireNonNull(serverVersion, "serverVersion");
        this.instructions = Instructions.text(surfaces);
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
        if (resources.isPresent()) {
            capabilities.putObject("resources").put("subscribe", false).put("listChanged", false);
        }
        ObjectNode serverInfo = result.putObject("serverInfo");
        serverInfo.put("name", SERVER_NAME);
        serverInfo.put("version", serverVersion);
        result.put("instructions", instructions);
        return new Initialized(JsonRpc.result(id, result), session, false);
    }

    /** Notifications and client responses need no answer; {@code notifications/initialized} completes the handshake. */
    void notification(McpSession session, String method) {
        if ("notifications/initialized".equals(method)) {
            session.markInitialized();
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
            case "resources/list" -> emptyList(id, params, "resources");
            case "resources/templates/list" -> listTemplates(id, params);
            case "resources/read" -> readResource(id, params);
            default -> JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND, "Method not found");
        };
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

    private ObjectNode callTool(JsonNode id, JsonNode params) {
        JsonNode name = params == null ? null : params.get("name");
        if (name == null || !name.isTextual()) {
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "tools/call needs params.name");
        }
        return switch (invoker.call(name.textValue(), params.get("arguments"))) {
            case ToolInvoker.Outcome.Result r -> JsonRpc.result(id, r.wire());
            case ToolInvoker.Outcome.Failure f -> JsonRpc.error(id, f.code(), f.message());
        };
    }

    private ObjectNode listTemplates(JsonNode id, JsonNode params) {
        if (resources.isEmpty() || hasCursor(params)) {
            return emptyList(id, params, "resourceTemplates");
        }
        ObjectNode result = Json.object();
        result.set("resourceTemplates", resources.get().templates());
        return JsonRpc.result(id, result);
    }

    private ObjectNode readResource(JsonNode id, JsonNode params) {
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
