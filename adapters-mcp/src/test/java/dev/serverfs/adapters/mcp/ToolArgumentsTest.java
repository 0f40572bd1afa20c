package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ToolArgumentsTest {

    private static ToolArguments args(String json) throws Exception {
        return new ToolArguments((ObjectNode) Json.WIRE.readTree(json));
    }

    @Test
    void typed_getters_read_present_values_and_treat_null_as_absent() throws Exception {
        ToolArguments a = args("""
                {"workdir":"docs","limit":5,"big":5000000000,"flag":true,"globs":["*.md"],"gone":null,
                 "edits":[{"old_text":"a","new_text":"b"}]}""");

        assertEquals("docs", a.requiredString("workdir"));
        assertEquals(Optional.of(5), a.integer("limit"));
        assertEquals(Optional.of(5_000_000_000L), a.longValue("big"));
        assertTrue(a.bool("flag", false));
        assertEquals(List.of("*.md"), a.strings("globs"));
        assertFalse(a.has("gone"));
        assertEquals(Optional.empty(), a.string("gone"));
        assertEquals("b", a.objects("edits").getFirst().requiredString("new_text"));
        assertEquals(List.of(), a.strings("missing"));
    }

    @Test
    void a_wrong_type_is_an_illegal_argument_not_a_silent_coercion() throws Exception {
        ToolArguments a = args("{\"limit\":\"5\",\"big\":5000000000,\"frac\":1.5}");

        assertThrows(IllegalArgumentException.class, () -> a.integer("limit"));
        assertThrows(IllegalArgumentException.class, () -> a.integer("big"));
        assertThrows(IllegalArgumentException.class, () -> a.longValue("frac"));
    }

    @Test
    void to_string_never_shows_values() throws Exception {
        String shown = args("{\"content\":\"top secret\"}").toString();

        assertFalse(shown.contains("top secret"), shown);
    }
}
