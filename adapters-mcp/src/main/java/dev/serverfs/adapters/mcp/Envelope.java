package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One JSON-RPC 2.0 message as received: a request (method and a string or number id), a notification (method,
 * no id), a response to us (result or error with an id), or invalid. MCP forbids a {@code null} id.
 */
record Envelope(Kind kind, JsonNode id, String method, JsonNode params) {

    enum Kind {
        REQUEST,
        NOTIFICATION,
        RESPONSE,
        INVALID
    }

    static Envelope of(JsonNode message) {
        if (!message.isObject()) {
            return new Envelope(Kind.INVALID, null, null, null);
        }
        JsonNode rawId = message.get("id");
        boolean idValid = rawId != null && (rawId.isTextual() || rawId.isIntegralNumber());
        JsonNode id = idValid ? rawId : null;
        JsonNode version = message.get("jsonrpc");
        if (version == null || !"2.0".equals(version.asText()) || !version.isTextual()) {
            return new Envelope(Kind.INVALID, id, null, null);
        }
        JsonNode method = message.get("method");
        if (method != null) {
            if (!method.isTextual()) {
                return new Envelope(Kind.INVALID, id, null, null);
            }
            if (rawId == null) {
                return new Envelope(Kind.NOTIFICATION, null, method.textValue(), message.get("params"));
            }
            return idValid
                    ? new Envelope(Kind.REQUEST, id, method.textValue(), message.get("params"))
                    : new Envelope(Kind.INVALID, null, null, null);
        }
        if (idValid && (message.has("result") || message.has("error"))) {
            return new Envelope(Kind.RESPONSE, id, null, null);
        }
        return new Envelope(Kind.INVALID, id, null, null);
    }
}
