package dev.serverfs.adapters.metrics;

import dev.serverfs.application.port.out.AuditLog;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@link AuditLog} that counts every {@code tool_call} event before handing it on: {@code
 * serverfs_tool_calls_total{tool,code}} (code {@code OK} or the stable error code) and the latency histogram {@code
 * serverfs_tool_call_seconds{tool}}, and {@code serverfs_tool_results_truncated_total{tool}} for answers cut by a
 * budget (a walk's entry cap, a result limit, a read's byte budget). Meters are looked up once per (tool, code), so
 * a call costs a few map reads and atomic updates.
 */
public final class MeteredAuditLog implements AuditLog {

    /** The {@code code} label of a successful call. */
    public static final String OK = "OK";

    /**
     * The histogram's bucket bounds: 50 µs (a warm {@code stat_file}) to 60 s (a search at its time bound), about
     * 2.5× apart, 19 buckets per tool instead of Micrometer's ~100 percentile-histogram buckets over that range.
     */
    static final Duration[] BUCKETS = Stream.of(
                    50_000L,
                    100_000L,
                    250_000L,
                    500_000L,
                    1_000_000L,
                    2_500_000L,
                    5_000_000L,
                    10_000_000L,
                    25_000_000L,
                    50_000_000L,
                    100_000_000L,
                    250_000_000L,
                    500_000_000L,
                    1_000_000_000L,
                    2_500_000_000L,
                    5_000_000_000L,
                    10_000_000_000L,
                    30_000_000_000L,
                    60_000_000_000L)
            .map(Duration::ofNanos)
            .toArray(Duration[]::new);

    private final AuditLog delegate;
    private final MeterRegistry registry;
    private final ConcurrentMap<String, Timer> timers = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, ConcurrentMap<String, Counter>> counters = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> truncated = new ConcurrentHashMap<>();

    public MeteredAuditLog(AuditLog delegate, MeterRegistry registry) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public void toolCall(ToolCall event) {
        try {
            String code = event.errorCode().orElse(OK);
            counters.computeIfAbsent(event.tool(), t -> new ConcurrentHashMap<>())
                    .computeIfAbsent(
                            code,
                            c -> Counter.builder("serverfs.tool.calls")
                                    .description("Tool calls by tool and result code (OK or the stable error code)")
                                    .tag("tool", event.tool())
                                    .tag("code", c)
                                    .register(registry))
                    .increment();
            timers.computeIfAbsent(
                            event.tool(),
                            t -> Timer.builder("serverfs.tool.call")
                                    .description("Tool call latency, from the request's arguments to its result")
                                    .tag("tool", t)
                                    .serviceLevelObjectives(BUCKETS)
                                    .register(registry))
                    .record(event.duration().toNanos(), TimeUnit.NANOSECONDS);
            if (Boolean.TRUE.equals(event.counters().get("truncated"))) {
                truncated
                        .computeIfAbsent(
                                event.tool(),
                                t -> Counter.builder("serverfs.tool.results.truncated")
                                        .description("Successful calls whose answer was cut by a budget or limit")
                                        .tag("tool", t)
                                        .register(registry))
                        .increment();
            }
        } catch (RuntimeException e) {
            // The port promises never to throw; a metrics failure must not lose the audit event.
        }
        delegate.toolCall(event);
    }
}
