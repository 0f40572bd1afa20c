package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

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
    void a_wrong_type_is_invalid_arguments_not_a_silent_coercion() throws Exception {
        ToolArguments a = args("{\"limit\":\"5\",\"frac\":1.5,\"flag\":1,\"list\":[1]}");

        for (Executable read : List.<Executable>of(
                () -> a.integer("limit"),
                () -> a.longValue("frac"),
                () -> a.bool("flag"),
                () -> a.strings("list"),
                () -> a.requiredString("missing"))) {
            assertEquals(
                    ErrorCode.INVALID_ARGUMENTS,
                    assertThrows(ServerFsException.class, read).code());
        }
    }

    @Test
    void integers_past_the_32_and_64_bit_range_saturate() throws Exception {
        // Issue 10 §7: the reference's integers are unbounded; every caller clamps or reads "past the end".
        ToolArguments a = args("""
                {"big":5000000000,"neg":-5000000000,"huge":123456789012345678901234567890,"whole":3e9,
                 "inf":1e400,"minus":-1e400,"two":2.0}""");

        assertEquals(Optional.of(Integer.MAX_VALUE), a.integer("big"));
        assertEquals(Optional.of(Integer.MIN_VALUE), a.integer("neg"));
        assertEquals(Optional.of(Long.MAX_VALUE), a.longValue("huge"));
        assertEquals(Optional.of(3_000_000_000L), a.longValue("whole"));
        assertEquals(Optional.of(Long.MAX_VALUE), a.longValue("inf"));
        assertEquals(Optional.of(Long.MIN_VALUE), a.longValue("minus"));
        assertEquals(Optional.of(2), a.integer("two"));
    }

    record Bound(
            String workdir, Integer limit, Long big, Boolean flag, List<String> globs, String gone, List<Edit> edits) {}

    record Edit(String oldText, String newText, Integer expectedCount) {}

    record Nested(List<ToolArguments> answers) {}

    @Test
    void bind_reads_snake_case_arguments_into_a_record_as_the_getters_read_them() throws Exception {
        ToolArguments a = args("""
                {"workdir":"docs","limit":5000000000,"big":1e400,"flag":true,"globs":["*.md"],"gone":null,
                 "edits":[{"old_text":"a","new_text":"b"},{"old_text":"c","new_text":"d","expected_count":2.0}]}""");

        assertEquals(
                new Bound(
                        "docs",
                        Integer.MAX_VALUE,
                        Long.MAX_VALUE,
                        true,
                        List.of("*.md"),
                        null,
                        List.of(new Edit("a", "b", null), new Edit("c", "d", 2))),
                a.bind(Bound.class));
        assertEquals(
                new Bound(null, null, null, null, null, null, null), args("{}").bind(Bound.class));
    }

    @Test
    void bind_keeps_a_nested_object_as_arguments_of_its_own() throws Exception {
        Nested n = args("{\"answers\":[{\"question_id\":\"q\",\"extra\":1}]}").bind(Nested.class);

        assertEquals(
                List.of("question_id", "extra"),
                List.copyOf(n.answers().getFirst().names()));
        assertEquals(new Edit("q", null, null), args("{\"old_text\":\"q\"}").bind(Edit.class));
    }

    @Test
    void bind_never_coerces_a_wrong_type_and_refuses_an_argument_the_record_lacks() throws Exception {
        for (String json : List.of(
                "{\"limit\":\"5\"}",
                "{\"big\":1.5}",
                "{\"flag\":1}",
                "{\"workdir\":5}",
                "{\"globs\":[1]}",
                "{\"globs\":\"*.md\"}",
                "{\"edits\":[{\"old_text\":false}]}")) {
            ToolArguments a = args(json);
            assertEquals(
                    ErrorCode.INVALID_ARGUMENTS,
                    assertThrows(ServerFsException.class, () -> a.bind(Bound.class))
                            .code(),
                    json);
        }
        ToolArguments unknown = args("{\"surprise\":1}");
        assertThrows(IllegalStateException.class, () -> unknown.bind(Bound.class));
    }

    @Test
    void to_string_never_shows_values() throws Exception {
        String shown = args("{\"content\":\"top secret\"}").toString();

        assertFalse(shown.contains("top secret"), shown);
    }
}
