package dev.serverfs.bootstrap.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A minimal MCP Streamable HTTP client for the Agent end-to-end tests: initialize, then JSON-RPC {@code tools/list}
 * and {@code tools/call} with JSON responses. Tool errors come back as {@link ToolCall#error()}.
 */
final class McpTestClient {
    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI url;
    private final String session;
    private final AtomicLong ids = new AtomicLong();

    /** One tool call's outcome: the structured content, or the {@code CODE: message} text of a tool error. */
    record ToolCall(JsonNode structured, String error) {
        JsonNode ok() {
            if (error != null) {
                throw new AssertionError("tool error: " + error);
            }
            return structured;
        }

        String code() {
            if (error == null) {
                throw new AssertionError("expected a tool error, got " + structured);
            }
            return error.substring(0, error.indexOf(':'));
        }
    }

    /** Non-null for a client of the stateless 2026-07-28 era: the version it names on every request. */
    private final String statelessVersion;

    /** Whether this stateless client declares the Tasks extension in every request's client capabilities. */
    private final boolean tasks;

    private McpTestClient(URI url, boolean tasks) {
        this.url = url;
        this.session = null;
        this.statelessVersion = "2026-07-28";
        this.tasks = tasks;
    }

    /** A client of the stateless 2026-07-28 era: no {@code initialize}, no session; each request carries {@code _meta}. */
    static McpTestClient stateless(String url) {
        return new McpTestClient(URI.create(url), false);
    }

    /** A stateless client that declares the Tasks extension ({@code io.modelcontextprotocol/tasks}) on every request. */
    static McpTestClient statelessWithTasks(String url) {
        return new McpTestClient(URI.create(url), true);
    }

    /** One request's whole JSON-RPC answer ({@code result} or {@code error}), whatever its HTTP status. */
    JsonNode answer(String method, Map<String, ?> params) throws IOException, InterruptedException {
        return JSON.readTree(
                post(request(method, JSON.valueToTree(params)), session).body());
    }

    /** The raw {@code result} of a {@code tools/call} (a {@code CallToolResult}, or a task's handle). */
    JsonNode callResult(String tool, Map<String, ?> arguments) throws IOException, InterruptedException {
        ObjectNode params = JSON.createObjectNode();
        params.put("name", tool);
        params.set("arguments", JSON.valueToTree(arguments));
        return rpc("tools/call", params);
    }

    McpTestClient(String url) throws IOException, InterruptedException {
        this.url = URI.create(url);
        this.statelessVersion = null;
        this.tasks = false;
        HttpResponse<String> response = post(request("initialize", initializeParams("2025-06-18", "agent-it")), null);
        this.session = response.headers().firstValue("Mcp-Session-Id").orElse(null);
        ObjectNode initialized = JSON.createObjectNode();
        initialized.put("jsonrpc", "2.0");
        initialized.put("method", "notifications/initialized");
        post(initialized, session);
    }

    /** A JSON-RPC {@code ping}; its (empty) result. */
    JsonNode ping() throws IOException, InterruptedException {
        return rpc("ping", JSON.createObjectNode());
    }

    JsonNode listTools() throws IOException, InterruptedException {
        return rpc("tools/list", JSON.createObjectNode()).get("tools");
    }

    ToolCall call(String tool, Map<String, ?> arguments) throws IOException, InterruptedException {
        ObjectNode params = JSON.createObjectNode();
        params.put("name", tool);
        params.set("arguments", JSON.valueToTree(arguments));
        JsonNode result = rpc("tools/call", params);
        if (result.path("isError").asBoolean(false)) {
            return new ToolCall(null, result.get("content").get(0).get("text").asText());
        }
        return new ToolCall(result.get("structuredContent"), null);
    }

    /** The raw JSON-RPC request body of a {@code tools/call}, for sending through another path (a proxy). */
    String callBody(String tool, Map<String, ?> arguments) throws IOException {
        ObjectNode params = JSON.createObjectNode();
        params.put("name", tool);
        params.set("arguments", JSON.valueToTree(arguments));
        return JSON.writeValueAsString(request("tools/call", params));
    }

    String url() {
        return url.toString();
    }

    /** Posts {@code message} as it is, in this client's session; the JSON answer, or null for an empty one (202). */
    JsonNode send(ObjectNode message) throws IOException, InterruptedException {
        String body = post(message, session).body();
        return body.isEmpty() ? null : JSON.readTree(body);
    }

    String session() {
        return session;
    }

    private JsonNode rpc(String method, ObjectNode params) throws IOException, InterruptedException {
        HttpResponse<String> response = post(request(method, params), session);
        JsonNode body = JSON.readTree(response.body());
        if (body.has("error")) {
            throw new AssertionError(method + " failed: " + body.get("error"));
        }
        return body.get("result");
    }

    private ObjectNode request(String method, ObjectNode params) {
        return request(ids.incrementAndGet(), method, params);
    }

    /** A JSON-RPC request object (for tests that send their own bytes). */
    static ObjectNode request(long id, String method, ObjectNode params) {
        ObjectNode request = JSON.createObjectNode();
        request.put("jsonrpc", "2.0");
        request.put("id", id);
        request.put("method", method);
        request.set("params", params);
        return request;
    }

    /** The params of an {@code initialize} at {@code protocolVersion} from a client named {@code client}. */
    static ObjectNode initializeParams(String protocolVersion, String client) {
        ObjectNode init = JSON.createObjectNode();
        init.put("protocolVersion", protocolVersion);
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", client).put("version", "1");
        return init;
    }

    private HttpResponse<String> post(ObjectNode body, String sessionId) throws IOException, InterruptedException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(url)
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", statelessVersion == null ? "2025-06-18" : statelessVersion);
        if (statelessVersion != null && body.get("params") instanceof ObjectNode params) {
            ObjectNode meta = params.putObject("_meta");
            meta.put("io.modelcontextprotocol/protocolVersion", statelessVersion);
            ObjectNode capabilities = meta.putObject("io.modelcontextprotocol/clientCapabilities");
            if (tasks) {
                capabilities.putObject("extensions").putObject("io.modelcontextprotocol/tasks");
            }
            String method = body.get("method").asText();
            builder.header("Mcp-Method", method);
            if (method.equals("tools/call")) {
                builder.header("Mcp-Name", params.get("name").asText());
            }
            if (method.startsWith("tasks/") && params.get("taskId") != null) {
                builder.header("Mcp-Name", params.get("taskId").asText());
            }
        }
        builder.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (sessionId != null) {
            builder.header("Mcp-Session-Id", sessionId);
        }
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }
}
