package dev.serverfs.bootstrap.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The log line shape of contract reference §12, rendered by the shipped {@code logback.xml}. */
class JsonLogFormatTest {

    private static final Logger LOG = LoggerFactory.getLogger(JsonLogFormatTest.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    @AfterEach
    void restore_level() {
        ServerFsLogging.applyLevel("INFO");
    }

    static List<JsonNode> lines(String stderr) throws Exception {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : stderr.split("\n")) {
            if (line.startsWith("{")) {
                nodes.add(JSON.readTree(line));
            }
        }
        return nodes;
    }

    static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void a_fluent_event_is_one_json_line_with_timestamp_level_event_then_its_key_values() throws Exception {
        StdStreams s = StdStreams.capture(() -> {
            LOG.atInfo()
                    .setMessage("tool_call")
                    .addKeyValue("tool", "read_text_file")
                    .addKeyValue("workdir", "docs")
                    .addKeyValue("ok", true)
                    .addKeyValue("duration_ms", 12)
                    .log();
            return 0;
        });
        assertEquals("", s.out());
        String[] physical = s.err().split("\n");
        assertEquals(1, physical.length, s.err());
        JsonNode line = JSON.readTree(physical[0]);
        assertEquals(List.of("timestamp", "level", "event", "tool", "workdir", "ok", "duration_ms"), fieldNames(line));
        assertTrue(
                line.get("timestamp").asText().matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z"),
                line.get("timestamp").asText());
        assertEquals("INFO", line.get("level").asText());
        assertEquals("tool_call", line.get("event").asText());
        assertEquals("read_text_file", line.get("tool").asText());
        assertTrue(line.get("ok").isBoolean());
        assertTrue(line.get("duration_ms").isInt());
    }

    @Test
    void warn_is_written_with_the_reference_name_warning() throws Exception {
        StdStreams s = StdStreams.capture(() -> {
            LOG.atWarn().setMessage("something_odd").log();
            return 0;
        });
        JsonNode line = lines(s.err()).getFirst();
        assertEquals("WARNING", line.get("level").asText());
        assertEquals(List.of("timestamp", "level", "event"), fieldNames(line));
    }

    @Test
    void the_configured_level_filters_events() throws Exception {
        ServerFsLogging.applyLevel("ERROR");
        StdStreams quiet = StdStreams.capture(() -> {
            LOG.atInfo().setMessage("hidden").log();
            LOG.atWarn().setMessage("hidden_too").log();
            LOG.atError().setMessage("shown").log();
            return 0;
        });
        assertEquals(
                List.of("shown"),
                lines(quiet.err()).stream().map(n -> n.get("event").asText()).toList());
        ServerFsLogging.applyLevel("DEBUG");
        StdStreams verbose = StdStreams.capture(() -> {
            LOG.atDebug().setMessage("detail").log();
            return 0;
        });
        assertEquals("DEBUG", lines(verbose.err()).getFirst().get("level").asText());
    }

    @Test
    void an_exception_adds_its_type_always_and_its_stack_trace_only_at_debug() throws Exception {
        Exception failure = new java.io.IOException("cannot open /srv/private/secret.txt");
        StdStreams info = StdStreams.capture(() -> {
            LOG.atError().setMessage("server_fault").setCause(failure).log();
            return 0;
        });
        JsonNode line = lines(info.err()).getFirst();
        assertEquals(List.of("timestamp", "level", "event", "error_type"), fieldNames(line));
        assertEquals("java.io.IOException", line.get("error_type").asText());
        assertFalse(info.err().contains("/srv/private"), info.err());
        ServerFsLogging.applyLevel("DEBUG");
        StdStreams debug = StdStreams.capture(() -> {
            LOG.atError().setMessage("server_fault").setCause(failure).log();
            return 0;
        });
        JsonNode detailed = lines(debug.err()).getFirst();
        assertEquals(List.of("timestamp", "level", "event", "error_type", "stack_trace"), fieldNames(detailed));
        assertTrue(detailed.get("stack_trace").asText().contains("IOException"));
    }

    @Test
    void level_names_map_to_logback_levels_and_unknown_names_mean_info() {
        assertEquals(ch.qos.logback.classic.Level.WARN, ServerFsLogging.toLogback("WARNING"));
        assertEquals(ch.qos.logback.classic.Level.DEBUG, ServerFsLogging.toLogback("debug"));
        assertEquals(ch.qos.logback.classic.Level.ERROR, ServerFsLogging.toLogback("ERROR"));
        assertEquals(ch.qos.logback.classic.Level.INFO, ServerFsLogging.toLogback("TRACE"));
        assertEquals(ch.qos.logback.classic.Level.INFO, ServerFsLogging.toLogback(null));
    }
}
