package dev.serverfs.adapters.codex;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The app-server's JSON-RPC lines (PROVIDERS.md Part 1 (b)): one JSON object per line, no {@code "jsonrpc"} member.
 * Pure. What the server writes is one of: a response to our request ({@code id} with {@code result} or {@code
 * error}), a request of its own ({@code id} and {@code method}: an approval or a question), or a notification
 * ({@code method} only). A line that is none of them is {@link Message.Garbage}.
 */
final class CodexWire {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** JSON-RPC "method not found": the answer to a server request ServerFS does not handle (reference §7.1). */
    static final int METHOD_NOT_FOUND = -32601;
    /** The answer to a server request whose handling failed (reference §7.1). */
    static final int HANDLER_FAILED = -32000;

    private CodexWire() {}

    sealed interface Message {
        record Response(String id, JsonNode result, JsonNode error) implements Message {
            boolean failed() {
                return error != null && !error.isNull();
            }
        }

        record ServerRequest(JsonNode id, String method, JsonNode params) implements Message {}

        record Notification(String method, JsonNode params) implements Message {}

        record Garbage() implements Message {}
    }

    static Message parse(String line) {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            return new Message.Garbage();
        }
        if (node == null || !node.isObject()) {
            return new Message.Garbage();
        }
        JsonNode id = node.get("id");
        JsonNode method = node.get("method");
        boolean hasId = id != null && !id.isNull();
        if (method != null && method.isTextual()) {
            JsonNode params = node.path("params");
            return hasId
                    ? new Message.ServerRequest(id, method.asText(), params)
                    : new Message.Notification(method.asText(), params);
        }
        if (hasId) {
            return new Message.Response(id.asText(), node.get("result"), node.get("error"));
        }
        return new Message.Garbage();
    }

    static String request(String id, String method, JsonNode params) {
        ObjectNode msg = NODES.objectNode().put("id", id).put("method", method);
        msg.set("params", params);
        return write(msg);
    }

    static String notification(String method) {
        return write(NODES.objectNode().put("method", method));
    }

    static String result(JsonNode id, JsonNode result) {
        ObjectNode msg = NODES.objectNode();
        msg.set("id", id);
        msg.set("result", result);
        return write(msg);
    }

    static String error(JsonNode id, int code, String message) {
        ObjectNode msg = NODES.objectNode();
        msg.set("id", id);
        msg.putObject("error").put("code", code).put("message", message);
        return write(msg);
    }

    /** Reference §7.1: {@code clientInfo} names the Bridge; experimental API on (turn/steer, request_user_input). */
    static ObjectNode initializeParams(String version) {
        ObjectNode params = NODES.objectNode();
        params.putObject("clientInfo")
                .put("name", "serverfs-agent-bridge")
                .put("title", "ServerFS Agent Bridge")
                .put("version", version);
        params.putObject("capabilities").put("experimentalApi", true);
        return params;
    }

    /** A user message as {@code turn/start} / {@code turn/steer} input. */
    static ArrayNode textInput(String text) {
        ArrayNode input = NODES.arrayNode();
        ObjectNode item = input.addObject().put("type", "text").put("text", text);
        item.putArray("text_elements");
        return input;
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }

    private static String write(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serializes", e);
        }
    }
}
