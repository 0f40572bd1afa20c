package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** The answer to {@code completion/complete} from a {@link CompletionProvider}. */
final class Completions {

    /** The most values one answer carries (MCP server/utilities/completion). */
    static final int MAX_VALUES = 100;

    private Completions() {}

    /** {@code completion/complete} (MCP server/utilities/completion): at most 100 values, {@code hasMore} beyond. */
    static ObjectNode complete(JsonNode id, JsonNode params, CompletionProvider provider) {
        JsonNode ref = params == null ? null : params.get("ref");
        JsonNode argument = params == null ? null : params.get("argument");
        String type = ref == null ? null : ref.path("type").textValue();
        String target = "ref/resource".equals(type)
                ? ref.path("uri").textValue()
                : ref == null ? null : ref.path("name").textValue();
        String argName = argument == null ? null : argument.path("name").textValue();
        String value = argument == null ? null : argument.path("value").textValue();
        if (type == null || target == null || argName == null || value == null) {
            return JsonRpc.error(
                    id, JsonRpc.INVALID_PARAMS, "completion/complete needs params.ref and params.argument");
        }
        List<String> values = provider.complete(new CompletionProvider.Reference(type, target), argName, value);
        ObjectNode result = Json.object();
        ObjectNode completion = result.putObject("completion");
        ArrayNode array = completion.putArray("values");
        values.stream().limit(MAX_VALUES).forEach(array::add);
        completion.put("total", values.size());
        completion.put("hasMore", values.size() > MAX_VALUES);
        return JsonRpc.result(id, result);
    }
}
