package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.HttpString;

/**
 * Chooses a POST's era and checks a stateless (2026-07-28) request before anything runs: a request is stateless when
 * its {@code _meta} names a protocol version or its {@code MCP-Protocol-Version} header is 2026-07-28 (an
 * {@code initialize} only by its {@code _meta}, so every session client's handshake stays as it was). Checks, in the
 * order 2026-07-28 basic/transports gives them: the version header is present (-32020), {@code _meta} has the
 * version and client capabilities (-32602), header and body versions agree (-32020), the version is served
 * (-32022 with the supported list), and {@code Mcp-Method}/{@code Mcp-Name} match the body (-32020); all 400.
 */
final class StatelessGate {

    static final int HEADER_MISMATCH = -32020;
    static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;
    static final HttpString METHOD_HEADER = new HttpString("Mcp-Method");
    static final HttpString NAME_HEADER = new HttpString("Mcp-Name");

    private StatelessGate() {}

    /** A checked stateless request, or its refusal. */
    sealed interface Checked {
        record Accepted(RequestMeta meta) implements Checked {}

        record Refused(int status, ObjectNode body) implements Checked {}
    }

    /** Whether this message belongs to the stateless era. */
    static boolean stateless(HeaderMap headers, Envelope envelope) {
        JsonNode meta = RequestMeta.of(envelope.params());
        if (meta != null && meta.has(RequestMeta.PROTOCOL_VERSION)) {
            return true;
        }
        if ("initialize".equals(envelope.method())) {
            return false;
        }
        HeaderValues version = headers.get(McpHttpHandler.VERSION_HEADER);
        return version != null
                && version.size() == 1
                && ProtocolVersions.STATELESS.equals(version.getFirst().strip());
    }

    static Checked check(HeaderMap headers, Envelope envelope) {
        JsonNode id = envelope.id();
        HeaderValues versionHeader = headers.get(McpHttpHandler.VERSION_HEADER);
        if (versionHeader == null || versionHeader.size() != 1) {
            return refused(id, HEADER_MISMATCH, "Bad Request: exactly one MCP-Protocol-Version header is required");
        }
        if (envelope.params() != null
                && !envelope.params().isNull()
                && !envelope.params().isObject()) {
            return refused(id, JsonRpc.INVALID_PARAMS, "params must be an object");
        }
        JsonNode meta = RequestMeta.of(envelope.params());
        JsonNode version = meta == null ? null : meta.get(RequestMeta.PROTOCOL_VERSION);
        JsonNode capabilities = meta == null ? null : meta.get(RequestMeta.CLIENT_CAPABILITIES);
        if (version == null || !version.isTextual() || !(capabilities instanceof ObjectNode caps)) {
            return refused(
                    id,
                    JsonRpc.INVALID_PARAMS,
                    "Invalid params: _meta needs " + RequestMeta.PROTOCOL_VERSION + " and "
                            + RequestMeta.CLIENT_CAPABILITIES);
        }
        String requested = version.textValue();
        if (!requested.equals(versionHeader.getFirst().strip())) {
            return refused(id, HEADER_MISMATCH, "Bad Request: MCP-Protocol-Version header does not match _meta");
        }
        if (!ProtocolVersions.STATELESS.equals(requested)) {
            ObjectNode body = JsonRpc.error(id, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version");
            ObjectNode data = ((ObjectNode) body.get("error")).putObject("data");
            ProtocolVersions.ALL.forEach(data.putArray("supported")::add);
            data.put("requested", requested);
            return new Checked.Refused(400, body);
        }
        if (!matches(headers.get(METHOD_HEADER), envelope.method())) {
            return refused(id, HEADER_MISMATCH, "Bad Request: Mcp-Method header does not match the body");
        }
        if (!matches(headers.get(NAME_HEADER), nameOf(envelope.method(), envelope.params()))) {
            return refused(id, HEADER_MISMATCH, "Bad Request: Mcp-Name header does not match the body");
        }
        return new Checked.Accepted(new RequestMeta(requested, caps, meta.get(RequestMeta.CLIENT_INFO)));
    }

    /**
     * The body value {@code Mcp-Name} mirrors (2026-07-28 transports, standard headers): a tool's or prompt's name,
     * a resource's URI, a task's id, or null when the method has none.
     */
    static String nameOf(String method, JsonNode params) {
        String field = switch (method) {
            case "tools/call", "prompts/get" -> "name";
            case "resources/read" -> "uri";
            // ext-tasks "Streamable HTTP: Routing Headers": Mcp-Name carries the task id.
            case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
            default -> null;
        };
        JsonNode value = field == null || params == null ? null : params.get(field);
        return value != null && value.isTextual() ? value.textValue() : null;
    }

    /** Values are compared case-sensitively after trimming optional whitespace (RFC 9110 §5.5); absent both ways is a match. */
    private static boolean matches(HeaderValues header, String body) {
        if (header == null || header.isEmpty()) {
            return body == null;
        }
        return header.size() == 1
                && body != null
                && body.equals(header.getFirst().strip());
    }

    private static Checked refused(JsonNode id, int code, String message) {
        return new Checked.Refused(400, JsonRpc.error(id, code, message));
    }
}
