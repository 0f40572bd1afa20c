package dev.serverfs.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.domain.json.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jackson trees into the domain's {@link JsonValue} (Jackson types never cross the module boundary, STYLE.md), with
 * long strings cut to {@link #MAX_STRING_CHARS} so a tool input always fits an interaction payload (reference §3.14:
 * 64 KiB) or an event.
 */
public final class ProviderJson {
    public static final int MAX_STRING_CHARS = 2048;
    public static final int MAX_ITEMS = 64;

    private ProviderJson() {}

    public static JsonValue toValue(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return JsonValue.JsonNull.INSTANCE;
        }
        if (node.isObject()) {
            Map<String, JsonValue> members = new LinkedHashMap<>();
            var fields = node.properties().iterator();
            while (fields.hasNext() && members.size() < MAX_ITEMS) {
                var field = fields.next();
                members.put(field.getKey(), toValue(field.getValue()));
            }
            return new JsonValue.JsonObject(members);
        }
        if (node.isArray()) {
            List<JsonValue> items = new ArrayList<>();
            for (JsonNode item : node) {
                if (items.size() == MAX_ITEMS) {
                    break;
                }
                items.add(toValue(item));
            }
            return new JsonValue.JsonArray(items);
        }
        if (node.isBoolean()) {
            return new JsonValue.JsonBool(node.booleanValue());
        }
        if (node.isNumber()) {
            return new JsonValue.JsonNumber(node.decimalValue());
        }
        return new JsonValue.JsonString(cut(node.asText()));
    }

    public static JsonValue.JsonObject toObject(JsonNode node) {
        return toValue(node) instanceof JsonValue.JsonObject o
                ? o
                : JsonValue.object().build();
    }

    public static String cut(String s) {
        if (s.length() <= MAX_STRING_CHARS) {
            return s;
        }
        int end = MAX_STRING_CHARS;
        if (Character.isHighSurrogate(s.charAt(end - 1))) {
            end--; // never split a surrogate pair
        }
        return s.substring(0, end) + "…";
    }
}
