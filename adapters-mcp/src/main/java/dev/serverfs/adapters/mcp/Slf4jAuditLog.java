package dev.serverfs.adapters.mcp;

import dev.serverfs.application.port.out.AuditLog;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * {@link AuditLog} as SLF4J structured events: message {@code tool_call}, fields {@code tool},
 * {@code duration_ms} (one decimal), {@code success}, {@code era} (only for a stateless 2026-07-28 request; a
 * session's event has none, as before), {@code workdir}, {@code path}, {@code error_code} on failure,
 * then the per-tool counters (reference §2.0). The bootstrap's JSON encoder renders them as top-level fields.
 */
public final class Slf4jAuditLog implements AuditLog {

    /** The logger name, so a deployment can route audit events on their own. */
    public static final String LOGGER = "dev.serverfs.audit";

    private static final Logger log = LoggerFactory.getLogger(LOGGER);

    @Override
    public void toolCall(ToolCall event) {
        try {
            LoggingEventBuilder builder = log.atInfo()
                    .setMessage("tool_call")
                    .addKeyValue("tool", event.tool())
                    .addKeyValue("duration_ms", durationMillis(event))
                    .addKeyValue("success", event.success());
            if (RequestMeta.CURRENT.isBound()) {
                builder.addKeyValue("era", RequestMeta.CURRENT.get().protocolVersion());
            }
            event.workdir().ifPresent(w -> builder.addKeyValue("workdir", w));
            event.path().ifPresent(p -> builder.addKeyValue("path", p));
            event.errorCode().ifPresent(c -> builder.addKeyValue("error_code", c));
            event.counters().forEach(builder::addKeyValue);
            builder.log();
        } catch (RuntimeException e) {
            // The port promises never to throw: an audit failure must not turn a tool result into a fault.
            log.atWarn()
                    .setMessage("audit_failed")
                    .addKeyValue("tool", event.tool())
                    .log();
        }
    }

    private static BigDecimal durationMillis(ToolCall event) {
        return BigDecimal.valueOf(event.duration().toNanos(), 6).setScale(1, RoundingMode.HALF_UP);
    }
}
