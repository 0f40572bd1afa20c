package dev.serverfs.bootstrap.logging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

/** The shipped encoder's own lines are byte for byte what its composite providers write. */
class PooledJsonEncoderTest {

    private static final String TRICKY = "q\"b\\s/n\nt\tc\u0001 \u00e9 \uD83D\uDE00 \u2028 </end> \u007f";

    private static PooledJsonEncoder shipped() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        OutputStreamAppender<?> appender = assertInstanceOf(
                OutputStreamAppender.class,
                context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR"));
        return assertInstanceOf(PooledJsonEncoder.class, appender.getEncoder());
    }

    private static LoggingEvent event(Level level, String message, Map<String, Object> pairs) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        LoggingEvent event =
                new LoggingEvent(Logger.FQCN, context.getLogger("dev.serverfs.audit"), level, message, null, null);
        event.setTimeStamp(1_767_323_045_678L);
        pairs.forEach((k, v) -> event.addKeyValuePair(new KeyValuePair(k, v)));
        return event;
    }

    @Test
    void audit_and_plain_events_are_written_exactly_as_the_composite_encoder_writes_them() {
        PooledJsonEncoder encoder = shipped();
        List<LoggingEvent> events = List.of(
                event(
                        Level.INFO,
                        "tool_call",
                        orderedPairs(
                                "tool",
                                "read_text_file",
                                "duration_ms",
                                new BigDecimal("12.3"),
                                "success",
                                true,
                                "workdir",
                                "docs",
                                "path",
                                TRICKY,
                                "bytes_returned",
                                1_048_576L,
                                "start_line",
                                1L,
                                "end_line",
                                16384L,
                                "has_more",
                                false,
                                "revision",
                                "abc-123")),
                event(
                        Level.INFO,
                        "tool_call",
                        orderedPairs(
                                "tool",
                                "stat_file",
                                "duration_ms",
                                new BigDecimal("0.0"),
                                "success",
                                false,
                                "error_code",
                                "NOT_FOUND",
                                "schema_version",
                                1,
                                "n",
                                Integer.MIN_VALUE,
                                "big",
                                Long.MAX_VALUE,
                                "d",
                                new BigDecimal("123456789.5"))),
                event(Level.WARN, "audit_failed", orderedPairs("tool", TRICKY)),
                event(Level.ERROR, TRICKY, orderedPairs()),
                event(Level.DEBUG, "no pairs", orderedPairs()));
        for (LoggingEvent e : events) {
            assertTrue(PooledJsonEncoder.plain(e));
            byte[] expected = encoder.composite(e);
            assertArrayEquals(expected, encoder.encode(e), new String(expected, StandardCharsets.UTF_8));
        }
    }

    @Test
    void an_event_with_a_throwable_or_another_value_type_goes_to_the_composite_encoder() {
        PooledJsonEncoder encoder = shipped();
        LoggingEvent failed = event(Level.ERROR, "mcp_internal_error", orderedPairs("exception", "x"));
        failed.setThrowableProxy(new ch.qos.logback.classic.spi.ThrowableProxy(new IllegalStateException("boom")));
        LoggingEvent odd = event(Level.INFO, "x", orderedPairs("ratio", 0.5d));
        for (LoggingEvent e : List.of(failed, odd)) {
            assertFalse(PooledJsonEncoder.plain(e));
            assertArrayEquals(encoder.composite(e), encoder.encode(e));
        }
    }

    private static Map<String, Object> orderedPairs(Object... kv) {
        Map<String, Object> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            map.put((String) kv[i], kv[i + 1]);
        }
        return map;
    }
}
