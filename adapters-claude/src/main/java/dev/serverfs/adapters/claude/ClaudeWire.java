package dev.serverfs.adapters.claude;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The stream-json wire of the Claude Code CLI (PROVIDERS.md Part 2 (b)-(d)): parses its stdout lines into {@link
 * ClaudeMessage}s and writes the lines we send (control requests, control responses, the prompt). One JSON object per
 * line, no trailing newline here.
 */
final class ClaudeWire {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ClaudeWire() {}

    /** Never throws: a line that is not the JSON we know is {@link ClaudeMessage.Other}. */
    static ClaudeMessage parse(String line) {
        JsonNode m;
        try {
            m = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            return new ClaudeMessage.Other("unparseable");
        }
        if (m == null || !m.isObject()) {
            return new ClaudeMessage.Other("unparseable");
        }
        String type = m.path("type").asText("");
        return switch (type) {
            case "system" -> system(m);
            case "assistant" -> assistant(m);
            case "result" ->
                new ClaudeMessage.Result(
                        m.path("is_error").asBoolean(false),
                        text(m, "result"),
                        text(m, "session_id"),
                        text(m, "uuid"),
                        m.path("api_error_status").isInt()
                                ? Optional.of(m.path("api_error_status").asInt())
                                : Optional.empty());
            case "control_request" -> {
                String id = m.path("request_id").asText("");
                JsonNode request = m.path("request");
                yield id.isEmpty() || !request.isObject()
                        ? new ClaudeMessage.Other(type)
                        : new ClaudeMessage.ControlRequest(
                                id, request.path("subtype").asText(""), request);
            }
            case "control_cancel_request" ->
                new ClaudeMessage.ControlCancel(m.path("request_id").asText(""));
            case "control_response" -> {
                JsonNode response = m.path("response");
                yield new ClaudeMessage.ControlResponse(
                        response.path("request_id").asText(""),
                        response.path("subtype").asText("").equals("success"));
            }
            default -> new ClaudeMessage.Other(type);
        };
    }

    private static ClaudeMessage system(JsonNode m) {
        String subtype = m.path("subtype").asText("");
        return switch (subtype) {
            case "init" -> {
                Optional<String> session = text(m, "session_id");
                yield session.isPresent() ? new ClaudeMessage.Init(session.get()) : new ClaudeMessage.Other("system");
            }
            case "api_retry" ->
                new ClaudeMessage.ApiRetry(
                        m.path("attempt").asInt(0),
                        m.path("error_status").isInt()
                                ? Optional.of(m.path("error_status").asInt())
                                : Optional.empty());
            default -> new ClaudeMessage.Other("system");
        };
    }

    private static ClaudeMessage assistant(JsonNode m) {
        List<ClaudeMessage.Block> blocks = new ArrayList<>();
        for (JsonNode block : m.path("message").path("content")) {
            switch (block.path("type").asText("")) {
                case "text" -> text(block, "text").ifPresent(t -> blocks.add(new ClaudeMessage.Text(t)));
                case "tool_use" ->
                    blocks.add(new ClaudeMessage.ToolUse(
                            block.path("id").asText(""), block.path("name").asText(""), block.path("input")));
                default -> {
                    // thinking and other blocks carry nothing a task shows
                }
            }
        }
        return new ClaudeMessage.Assistant(List.copyOf(blocks));
    }

    private static Optional<String> text(JsonNode m, String field) {
        JsonNode v = m.get(field);
        return v != null && v.isTextual() ? Optional.of(v.asText()) : Optional.empty();
    }

    // ------------------------------------------------------------------------------------------ what we send

    /** The handshake the SDK sends first; without hooks or a custom system prompt (reference §7.2: preset). */
    static String initialize(String requestId) {
        ObjectNode request = NODES.objectNode().put("subtype", "initialize");
        request.putNull("hooks");
        return controlRequest(requestId, request);
    }

    /** Stops the running turn; the CLI answers with a {@code result} and stays alive (PROVIDERS.md (d)). */
    static String interrupt(String requestId) {
        return controlRequest(requestId, NODES.objectNode().put("subtype", "interrupt"));
    }

    private static String controlRequest(String requestId, ObjectNode request) {
        ObjectNode m = NODES.objectNode().put("type", "control_request").put("request_id", requestId);
        m.set("request", request);
        return m.toString();
    }

    /** The prompt as one {@code user} line. */
    static String userMessage(String text) {
        ObjectNode m = NODES.objectNode().put("type", "user").put("session_id", "");
        ObjectNode message = m.putObject("message").put("role", "user");
        message.putArray("content").addObject().put("type", "text").put("text", text);
        m.putNull("parent_tool_use_id");
        return m.toString();
    }

    /** {@code can_use_tool} allowed, with the (possibly updated) input and session-scoped permission updates. */
    static String allow(String requestId, JsonNode updatedInput, List<JsonNode> updatedPermissions) {
        ObjectNode response = NODES.objectNode().put("behavior", "allow");
        response.set("updatedInput", updatedInput);
        if (!updatedPermissions.isEmpty()) {
            ArrayNode updates = response.putArray("updatedPermissions");
            updatedPermissions.forEach(updates::add);
        }
        return success(requestId, response);
    }

    /** {@code can_use_tool} denied; with {@code interrupt} the CLI also ends the turn (PROVIDERS.md (c)). */
    static String deny(String requestId, String message, boolean interrupt) {
        return success(
                requestId,
                NODES.objectNode()
                        .put("behavior", "deny")
                        .put("message", message)
                        .put("interrupt", interrupt));
    }

    /** A control request we do not support: answered, never left hanging. */
    static String error(String requestId, String message) {
        ObjectNode m = NODES.objectNode().put("type", "control_response");
        m.putObject("response")
                .put("subtype", "error")
                .put("request_id", requestId)
                .put("error", message);
        return m.toString();
    }

    private static String success(String requestId, ObjectNode response) {
        ObjectNode m = NODES.objectNode().put("type", "control_response");
        ObjectNode r = m.putObject("response").put("subtype", "success").put("request_id", requestId);
        r.set("response", response);
        return m.toString();
    }
}
