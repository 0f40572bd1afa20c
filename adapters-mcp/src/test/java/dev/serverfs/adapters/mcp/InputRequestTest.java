package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InputRequestTest {

    private static String wire(InputRequest request) {
        return new String(Json.writeBytes(Json.WIRE.valueToTree(request.params())), StandardCharsets.UTF_8);
    }

    @Test
    void each_kind_has_the_spec_shape_and_names_the_capability_it_needs() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("name", "string");
        fields.put("ok", "boolean");
        InputRequest form = InputRequest.form("Who?", fields);
        InputRequest sample = InputRequest.sampling("Hi", 5);
        InputRequest roots = InputRequest.listRoots();

        assertEquals(
                "{\"mode\":\"form\",\"message\":\"Who?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":"
                        + "{\"name\":{\"type\":\"string\"},\"ok\":{\"type\":\"boolean\"}},\"required\":[\"name\",\"ok\"]}}",
                wire(form));
        assertEquals(
                "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"Hi\"}}],\"maxTokens\":5}",
                wire(sample));
        assertEquals("{}", wire(roots));
        assertEquals(
                List.of("elicitation", "sampling", "roots"),
                List.of(form.capability(), sample.capability(), roots.capability()));
    }

    @Test
    void only_the_three_input_methods_and_answers_with_something_to_ask_or_carry() {
        assertThrows(IllegalArgumentException.class, () -> new InputRequest("tools/call", Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new InputRequired(Map.of(), Optional.empty()));
        assertThrows(IllegalArgumentException.class, () -> InputRequired.of(Map.of("", InputRequest.listRoots())));
        assertThrows(
                IllegalArgumentException.class,
                () -> InputRequired.of(Map.of(), "x".repeat(InputRequired.MAX_STATE_CHARS + 1)));
        assertEquals(Optional.of("s"), InputRequired.of(Map.of(), "s").state());
    }
}
