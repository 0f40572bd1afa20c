package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The adapter's one JSON seam: strict parsing of requests, snake_case writing of tool payloads. */
final class Json {

    /** Wire messages: duplicate keys and trailing garbage are parse errors. */
    static final ObjectMapper WIRE = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** Tool payload records: component {@code binaryTransfer} is written as {@code binary_transfer}. */
    static final ObjectMapper PAYLOAD = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .build();

    private Json() {}

    static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    static JsonNode payloadTree(Object payload) {
        return PAYLOAD.valueToTree(payload);
    }

    static String write(JsonNode node) {
        try {
            return WIRE.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("JSON tree could not be written", e);
        }
    }
}
