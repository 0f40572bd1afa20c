package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.HttpString;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Chooses a POST's era and checks a stateless (2026-07-28) request before anything runs: a request is stateless when
 * its {@code _meta} names a protocol version or its {@code MCP-Protocol-Version} header is 2026-07-28 (an
 * {@code initialize} only by its {@code _meta}, so every session client's handshake stays as it was). Checks, in the
 * order 2026-07-28 basic/transports gives them: the version header is present (-32020), {@code _meta} has the
 * version and client capabilities (-32602), header and body versions agree (-32020), the version is served
 * (-32022 with the supported list), {@code Mcp-Method}/{@code Mcp-Name} match the body, and every {@code
 * Mcp-Param-{Name}} header a called tool's schema declares ({@code x-mcp-header}) matches its argument (-32020); all
 * 400. {@code Mcp-Name} and {@code Mcp-Param-*} values may be Base64 sentinels ({@code =?base64?...?=}), decoded
 * strictly before the comparison.
 */
final class StatelessGate {

    static final int HEADER_MISMATCH = -32020;
    static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;
    static final HttpString METHOD_HEADER = new HttpString("Mcp-Method");
    static final HttpString NAME_HEADER = new HttpString("Mcp-Name");
    static final String PARAM_HEADER_PREFIX = "Mcp-Param-";

    private static final String SENTINEL_PREFIX = "=?base64?";
    private static final String SENTINEL_SUFFIX = "?=";
    private static final Pattern BASE64 =
            Pattern.compile("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");

    private StatelessGate() {}

    /** A checked stateless request, or its refusal. */
    sealed interface Checked {
        record Accepted(RequestMeta meta) implements Checked {}

        record Refused(int status, ObjectNode body) implements Checked {}
    }

    /**
     * Whether this message belongs to the stateless era: its {@code _meta} names a protocol version, or its version
     * header names 2026-07-28. An {@code initialize} opens a session as before unless its {@code _meta} names
     * 2026-07-28 (the revision that removed it).
     */
    static boolean stateless(HeaderMap headers, Envelope envelope) {
        JsonNode meta = RequestMeta.of(envelope.params());
        if ("initialize".equals(envelope.method())) {
            return meta != null
                    && ProtocolVersions.STATELESS.equals(
                            meta.path(RequestMeta.PROTOCOL_VERSION).asText(null));
        }
        if (meta != null && meta.has(RequestMeta.PROTOCOL_VERSION)) {
            return true;
        }
        HeaderValues version = headers.get(McpHttpHandler.VERSION_HEADER);
        return version != null
                && version.size() == 1
                && ProtocolVersions.STATELESS.equals(version.getFirst().strip());
    }

    static Checked check(HeaderMap headers, Envelope envelope) {
        return check(headers, envelope, tool -> Map.of());
    }

    /**
     * As {@link #check(HeaderMap, Envelope)}; {@code paramHeaders} gives a tool's {@code x-mcp-header} names and the
     * property path of the argument each mirrors (2026-07-28 transports, custom headers from tool parameters).
     */
    static Checked check(
            HeaderMap headers, Envelope envelope, Function<String, Map<String, List<String>>> paramHeaders) {
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
        if (!literalMatches(headers.get(METHOD_HEADER), envelope.method())) {
            return refused(id, HEADER_MISMATCH, mismatch(headers.get(METHOD_HEADER), "Mcp-Method"));
        }
        String name = nameOf(envelope.method(), envelope.params());
        if (!matches(headers.get(NAME_HEADER), name)) {
            return refused(id, HEADER_MISMATCH, mismatch(headers.get(NAME_HEADER), "Mcp-Name"));
        }
        if ("tools/call".equals(envelope.method())) {
            Map<String, List<String>> declared = name == null ? Map.of() : paramHeaders.apply(name);
            JsonNode arguments = envelope.params().path("arguments");
            for (Map.Entry<String, List<String>> param : declared.entrySet()) {
                if (!paramMatches(headers.get(PARAM_HEADER_PREFIX + param.getKey()), at(arguments, param.getValue()))) {
                    return refused(
                            id,
                            HEADER_MISMATCH,
                            "Bad Request: " + PARAM_HEADER_PREFIX + param.getKey()
                                    + " header does not match the arguments");
                }
            }
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

    /** Why a standard header was refused: absent where the body has the value, or different from it. */
    private static String mismatch(HeaderValues header, String name) {
        return header == null || header.isEmpty()
                ? "Bad Request: " + name + " header is required"
                : "Bad Request: " + name + " header does not match the body";
    }

    /**
     * Values are compared case-sensitively after trimming optional whitespace (RFC 9110 §5.5) and decoding a Base64
     * sentinel; absent both ways is a match.
     */
    private static boolean matches(HeaderValues header, String body) {
        if (header == null || header.isEmpty()) {
            return body == null;
        }
        return header.size() == 1
                && body != null
                && decoded(header.getFirst()).filter(body::equals).isPresent();
    }

    /**
     * {@code Mcp-Method} against the body's method: the value as it is after trimming optional whitespace, never a
     * decoded sentinel (2026-07-28 transports, value encoding: only {@code Mcp-Name} and {@code Mcp-Param-{Name}}
     * may carry one), so an intermediary that acts on the header sees the method the server runs.
     */
    private static boolean literalMatches(HeaderValues header, String body) {
        if (header == null || header.size() != 1 || body == null) {
            return false;
        }
        String value = header.getFirst().strip();
        return headerSafe(value) && value.equals(body);
    }

    /**
     * A tool argument against its {@code Mcp-Param-*} header: a value present (not null) needs the header, equal to
     * the value's string form (a string as it is, an integer in decimal and compared as a number, a boolean as
     * {@code true}/{@code false}); an absent value expects no header.
     */
    private static boolean paramMatches(HeaderValues header, JsonNode value) {
        if (value == null || value.isNull()) {
            return header == null || header.isEmpty();
        }
        if (header == null || header.size() != 1) {
            return false;
        }
        Optional<String> text = decoded(header.getFirst());
        if (text.isEmpty()) {
            return false;
        }
        if (value.isTextual()) {
            return value.textValue().equals(text.get());
        }
        if (value.isBoolean()) {
            return Boolean.toString(value.booleanValue()).equals(text.get());
        }
        if (value.isIntegralNumber()) {
            try {
                return new BigDecimal(text.get()).compareTo(value.decimalValue()) == 0;
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return false;
    }

    /** The instance value at a chain of {@code properties} keys, or null. */
    private static JsonNode at(JsonNode arguments, List<String> path) {
        JsonNode node = arguments;
        for (String key : path) {
            node = node == null ? null : node.get(key);
        }
        return node;
    }

    /**
     * A header value after trimming optional whitespace; a {@code =?base64?...?=} sentinel is decoded as the UTF-8 of
     * strict, padded standard Base64 (2026-07-28 transports, value encoding), empty when it is not. Any other value
     * is literal, and empty when it has a character a client must have encoded (outside visible ASCII, space and
     * tab: the server validation's "a header value contains invalid characters").
     */
    static Optional<String> decoded(String raw) {
        String value = raw.strip();
        if (!value.startsWith(SENTINEL_PREFIX)
                || !value.endsWith(SENTINEL_SUFFIX)
                || value.length() < SENTINEL_PREFIX.length() + SENTINEL_SUFFIX.length()) {
            return headerSafe(value) ? Optional.of(value) : Optional.empty();
        }
        String encoded = value.substring(SENTINEL_PREFIX.length(), value.length() - SENTINEL_SUFFIX.length());
        if (!BASE64.matcher(encoded).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Base64.getDecoder().decode(encoded)))
                    .toString());
        } catch (CharacterCodingException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** RFC 9110 §5.5 field-value characters a client may send unencoded: visible ASCII, space and tab. */
    private static boolean headerSafe(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    private static Checked refused(JsonNode id, int code, String message) {
        return new Checked.Refused(400, JsonRpc.error(id, code, message));
    }
}
