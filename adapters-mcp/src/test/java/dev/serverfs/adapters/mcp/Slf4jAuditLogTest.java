package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.domain.error.ErrorCode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

class Slf4jAuditLogTest {

    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(Slf4jAuditLog.LOGGER);

    @BeforeEach
    void attach() {
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void detach() {
        logger.detachAppender(appender);
    }

    static Map<String, Object> fields(ILoggingEvent event) {
        Map<String, Object> fields = new LinkedHashMap<>();
        List<KeyValuePair> pairs = event.getKeyValuePairs() == null ? List.of() : event.getKeyValuePairs();
        pairs.forEach(p -> fields.put(p.key, p.value));
        return fields;
    }

    @Test
    void a_stateless_request_event_names_its_era_and_a_session_event_does_not() {
        AuditLog.ToolCall call = AuditLog.ToolCall.succeeded(
                "list_workdirs", Duration.ofMillis(1), Optional.empty(), Optional.empty(), Map.of());
        RequestMeta meta = new RequestMeta("2026-07-28", Json.object(), null);

        ScopedValue.where(RequestMeta.CURRENT, meta).run(() -> new Slf4jAuditLog().toolCall(call));
        new Slf4jAuditLog().toolCall(call);

        assertEquals("2026-07-28", fields(appender.list.get(0)).get("era"));
        assertEquals(
                List.of("tool", "duration_ms", "success"),
                List.copyOf(fields(appender.list.get(1)).keySet()));
    }

    @Test
    void success_event_has_the_contract_fields_in_order() {
        new Slf4jAuditLog()
                .toolCall(AuditLog.ToolCall.succeeded(
                        "list_directory",
                        Duration.ofNanos(12_345_678),
                        Optional.of("docs"),
                        Optional.of("src/main"),
                        Map.of("returned", 3)));

        ILoggingEvent event = appender.list.getFirst();
        assertEquals("tool_call", event.getMessage());
        assertEquals(
                List.of("tool", "duration_ms", "success", "workdir", "path", "returned"),
                List.copyOf(fields(event).keySet()));
        assertEquals(new BigDecimal("12.3"), fields(event).get("duration_ms"));
        assertEquals(true, fields(event).get("success"));
    }

    @Test
    void failure_event_carries_the_error_code() {
        new Slf4jAuditLog()
                .toolCall(AuditLog.ToolCall.failed(
                        "read_text_file",
                        Duration.ofMillis(2),
                        Optional.of("docs"),
                        Optional.of("a.txt"),
                        ErrorCode.PATH_NOT_FOUND));

        Map<String, Object> fields = fields(appender.list.getFirst());
        assertEquals(false, fields.get("success"));
        assertEquals("PATH_NOT_FOUND", fields.get("error_code"));
        assertEquals(new BigDecimal("2.0"), fields.get("duration_ms"));
    }

    @Test
    void every_error_code_can_be_audited() {
        // Issue 10 §2: INVALID_BASE64 (a digit) was refused by the audit record and turned a tool error into a 500.
        for (ErrorCode code : ErrorCode.values()) {
            new Slf4jAuditLog()
                    .toolCall(AuditLog.ToolCall.failed(
                            "upload_binary_file", Duration.ZERO, Optional.empty(), Optional.empty(), code));
            assertEquals(code.wire(), fields(appender.list.getLast()).get("error_code"));
        }
    }

    @Test
    void an_event_can_not_carry_a_field_outside_the_counter_list() {
        assertThrows(
                IllegalArgumentException.class,
                () -> AuditLog.ToolCall.succeeded(
                        "search_text", Duration.ZERO, Optional.empty(), Optional.empty(), Map.of("query", "secret")));
        assertThrows(
                IllegalArgumentException.class,
                () -> AuditLog.ToolCall.succeeded(
                        "x", Duration.ZERO, Optional.empty(), Optional.empty(), Map.of("returned", List.of("a"))));
    }
}
