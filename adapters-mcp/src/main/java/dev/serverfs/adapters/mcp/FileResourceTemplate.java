package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.application.port.in.ReadResourceUseCase;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The resource template {@code serverfs://{workdir}/{+path}} (contract reference §2.7): listed by
 * {@code resources/templates/list}, read by {@code resources/read}. Everything after the workdir is the path,
 * percent-decoded (so {@code a/b.txt} and {@code a%2Fb.txt} both work). A coded failure is a JSON-RPC error whose
 * message is {@code CODE: message}: -32002 when the workdir or file does not exist (spec: resource not found),
 * -32602 otherwise.
 */
final class FileResourceTemplate {

    static final int RESOURCE_NOT_FOUND = -32002;
    private static final String SCHEME = "serverfs://";

    private final ReadResourceUseCase useCase;

    FileResourceTemplate(ReadResourceUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    ArrayNode templates() {
        ArrayNode list = Json.WIRE.createArrayNode();
        ObjectNode t = list.addObject();
        t.put("uriTemplate", ReadResourceUseCase.URI_TEMPLATE);
        t.put("name", ReadResourceUseCase.NAME);
        t.put("mimeType", ReadResourceUseCase.MIME_TYPE);
        t.put("description", "A UTF-8 text file of a workdir, whole; use read_text_file for large files.");
        return list;
    }

    ObjectNode read(JsonNode id, JsonNode params) {
        JsonNode uriNode = params == null ? null : params.get("uri");
        if (uriNode == null || !uriNode.isTextual()) {
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "resources/read needs params.uri");
        }
        String uri = uriNode.textValue();
        if (!uri.startsWith(SCHEME)) {
            return JsonRpc.error(id, RESOURCE_NOT_FOUND, "Resource not found");
        }
        String rest = uri.substring(SCHEME.length());
        int slash = rest.indexOf('/');
        String workdir = decode(slash < 0 ? rest : rest.substring(0, slash));
        String path = slash < 0 ? "" : decode(rest.substring(slash + 1));
        if (workdir == null || path == null) {
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "malformed resource URI");
        }
        try {
            String text = useCase.readResource(workdir, path);
            ObjectNode result = Json.object();
            ObjectNode content = result.putArray("contents").addObject();
            content.put("uri", uri);
            content.put("mimeType", ReadResourceUseCase.MIME_TYPE);
            content.put("text", text);
            return JsonRpc.result(id, result);
        } catch (ServerFsException e) {
            boolean missing = e.code() == ErrorCode.PATH_NOT_FOUND || e.code() == ErrorCode.WORKDIR_NOT_FOUND;
            return JsonRpc.error(id, missing ? RESOURCE_NOT_FOUND : JsonRpc.INVALID_PARAMS, e.agentText());
        }
    }

    /** RFC 3986 percent-decoding as UTF-8 ({@code +} stays {@code +}); null when malformed. */
    static String decode(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '%') {
                if (i + 2 >= bytes.length) {
                    return null;
                }
                int hi = Character.digit(bytes[i + 1], 16);
                int lo = Character.digit(bytes[i + 2], 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out.write(hi * 16 + lo);
                i += 2;
            } else {
                out.write(bytes[i]);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
