package dev.serverfs.adapters.bridge;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Protocol v1 framing and envelopes (reference §4.1): one compact UTF-8 JSON object per {@code \n}-terminated line,
 * at most {@link #MAX_LINE_BYTES} bytes (terminator excluded) each way; exact key sets; {@code protocol_version}
 * the JSON integer 1; NaN/Infinity, duplicate keys and trailing data rejected. Pure: no I/O.
 */
final class BridgeCodec {
    static final int PROTOCOL_VERSION = 1;
    static final int MAX_LINE_BYTES = 1_048_576;

    private static final Set<String> REQUEST_KEYS = Set.of("protocol_version", "request_id", "method", "params");
    private static final Set<String> SUCCESS_KEYS = Set.of("request_id", "ok", "result");
    private static final Set<String> ERROR_KEYS = Set.of("request_id", "ok", "error");
    private static final Set<String> ERROR_BODY_KEYS = Set.of("code", "message");

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private BridgeCodec() {}

    static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    // ---- server side ----

    /** Decodes one request line (without its terminator) or throws the protocol's refusal. */
    static BridgeRequest decodeRequest(byte[] line) {
        JsonNode root = parse(line).orElseThrow(() -> refuse(ErrorCode.INVALID_REQUEST, "invalid JSON", null));
        if (!root.isObject()) {
            throw refuse(ErrorCode.INVALID_REQUEST, "the request is not a JSON object", null);
        }
        JsonNode idNode = root.get("request_id");
        String requestId =
                idNode != null && idNode.isTextual() && !idNode.textValue().isEmpty() ? idNode.textValue() : null;
        if (!keys(root).equals(REQUEST_KEYS)) {
            throw refuse(
                    ErrorCode.INVALID_REQUEST,
                    "the request has exactly protocol_version, request_id, method and params",
                    requestId);
        }
        if (requestId == null) {
            throw refuse(ErrorCode.INVALID_REQUEST, "request_id is a non-empty string", null);
        }
        JsonNode version = root.get("protocol_version");
        if (!version.isIntegralNumber()) {
            throw refuse(ErrorCode.INVALID_REQUEST, "protocol_version is an integer", requestId);
        }
        if (!version.canConvertToInt() || version.intValue() != PROTOCOL_VERSION) {
            throw refuse(ErrorCode.PROTOCOL_VERSION_UNSUPPORTED, "protocol_version must be 1", requestId);
        }
        JsonNode methodNode = root.get("method");
        if (!methodNode.isTextual() || methodNode.textValue().isEmpty()) {
            throw refuse(ErrorCode.INVALID_REQUEST, "method is a non-empty string", requestId);
        }
        JsonNode params = root.get("params");
        if (!params.isObject()) {
            throw refuse(ErrorCode.INVALID_REQUEST, "params is an object", requestId);
        }
        BridgeMethod method = BridgeMethod.fromWire(methodNode.textValue())
                .orElseThrow(() -> refuse(ErrorCode.METHOD_NOT_FOUND, "unknown method", requestId));
        Set<String> given = keys(params);
        for (String name : given) {
            if (!method.allows(name)) {
                throw refuse(ErrorCode.INVALID_REQUEST, "unknown param " + name + " for " + method.wire(), requestId);
            }
        }
        for (String name : new TreeSet<>(method.required())) {
            if (!given.contains(name)) {
                throw refuse(ErrorCode.INVALID_REQUEST, "missing param " + name + " for " + method.wire(), requestId);
            }
        }
        return new BridgeRequest(requestId, method, (ObjectNode) params);
    }

    /** {@code {request_id, ok: true, result}}; a line over the limit is replaced by {@code RESPONSE_TOO_LARGE}. */
    static byte[] success(String requestId, ObjectNode result) {
        ObjectNode envelope = object();
        envelope.put("request_id", requestId);
        envelope.put("ok", true);
        envelope.set("result", result);
        byte[] line = write(envelope);
        if (line.length - 1 > MAX_LINE_BYTES) {
            return error(requestId, ErrorCode.RESPONSE_TOO_LARGE, "the response exceeds 1048576 bytes");
        }
        return line;
    }

    /** {@code {request_id (or null), ok: false, error: {code, message}}}. */
    static byte[] error(String requestIdOrNull, ErrorCode code, String message) {
        ObjectNode envelope = object();
        envelope.put("request_id", requestIdOrNull);
        envelope.put("ok", false);
        ObjectNode error = envelope.putObject("error");
        error.put("code", code.wire());
        error.put("message", message);
        return write(envelope);
    }

    // ---- client side ----

    /** The request line; over the limit → {@code AGENT_BRIDGE_PROTOCOL_ERROR} (reference §10.2), nothing sent. */
    static byte[] request(String requestId, BridgeMethod method, ObjectNode params) {
        ObjectNode envelope = object();
        envelope.put("protocol_version", PROTOCOL_VERSION);
        envelope.put("request_id", requestId);
        envelope.put("method", method.wire());
        envelope.set("params", params);
        byte[] line = write(envelope);
        if (line.length - 1 > MAX_LINE_BYTES) {
            throw new ServerFsException(ErrorCode.AGENT_BRIDGE_PROTOCOL_ERROR, "the request is too large");
        }
        return line;
    }

    /**
     * Checks a response line against the request it answers and returns its {@code result}. A Bridge error is
     * rethrown with the Bridge's code and message (reference §3: verbatim); anything malformed, a wrong key set or a
     * foreign {@code request_id} → {@code AGENT_BRIDGE_PROTOCOL_ERROR}.
     */
    static ObjectNode decodeResponse(byte[] line, String requestId) {
        JsonNode root = parse(line).filter(JsonNode::isObject).orElseThrow(() -> malformed("not a JSON object"));
        JsonNode ok = root.get("ok");
        if (ok == null || !ok.isBoolean()) {
            throw malformed("ok is not a boolean");
        }
        JsonNode echoed = root.get("request_id");
        if (ok.booleanValue()) {
            if (!keys(root).equals(SUCCESS_KEYS) || !root.get("result").isObject()) {
                throw malformed("unexpected success envelope");
            }
            if (!echoed.isTextual() || !echoed.textValue().equals(requestId)) {
                throw malformed("request_id does not match");
            }
            return (ObjectNode) root.get("result");
        }
        if (!keys(root).equals(ERROR_KEYS)) {
            throw malformed("unexpected error envelope");
        }
        if (!(echoed.isNull() || (echoed.isTextual() && echoed.textValue().equals(requestId)))) {
            throw malformed("request_id does not match");
        }
        JsonNode error = root.get("error");
        if (!error.isObject()
                || !keys(error).equals(ERROR_BODY_KEYS)
                || !error.get("code").isTextual()
                || !error.get("message").isTextual()) {
            throw malformed("unexpected error body");
        }
        ErrorCode code = Arrays.stream(ErrorCode.values())
                .filter(c -> c.wire().equals(error.get("code").textValue()))
                .findFirst()
                .orElseThrow(() -> malformed("unknown error code"));
        throw new ServerFsException(code, error.get("message").textValue());
    }

    // ---- shared ----

    static byte[] write(JsonNode node) {
        try {
            byte[] json = JSON.writeValueAsBytes(node);
            byte[] line = Arrays.copyOf(json, json.length + 1);
            line[json.length] = '\n';
            return line;
        } catch (JacksonException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }

    static Optional<JsonNode> parse(byte[] line) {
        try {
            JsonNode node = JSON.readTree(line);
            return node == null || node.isMissingNode() ? Optional.empty() : Optional.of(node);
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }

    private static Set<String> keys(JsonNode object) {
        Set<String> names = new TreeSet<>();
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    private static ProtocolRefusal refuse(ErrorCode code, String message, String requestId) {
        return new ProtocolRefusal(code, message, Optional.ofNullable(requestId));
    }

    private static ServerFsException malformed(String why) {
        return new ServerFsException(ErrorCode.AGENT_BRIDGE_PROTOCOL_ERROR, "invalid Bridge response: " + why);
    }
}
