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
 * budget (a walk's entry cap, a result limit, a read's byte budget). A call costs two map reads (the tool's meters,
 * then its counter for the result code), a counter increment and a timer record, and allocates nothing.
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
    private final ConcurrentMap<String, ToolMeters> tools = new ConcurrentHashMap<>();

    public MeteredAuditLog(AuditLog delegate, MeterRegistry registry) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public void toolCall(ToolCall event) {
        try {
            ToolMeters meters = tools.get(event.tool());
            if (meters == null) {
                meters = tools.computeIfAbsent(event.tool(), ToolMeters::new);
            }
            meters.record(event);
        } catch (RuntimeException e) {
            // The port promises never to throw; a metrics failure must not lose the audit event.
        }
        delegate.toolCall(event);
    }

    /**
     * One tool's meters, found with one map read per call; its call counters are keyed by result code. A counter is registered when its first call comes (so a
     * tool that never failed shows no error series); two threads racing to register it get the same meter back from
     * the registry, so the race is benign.
     */
    private final class ToolMeters {

        private final String tool;
        private final Timer latency;
        private final ConcurrentMap<String, Counter> calls = new ConcurrentHashMap<>();
        private volatile Counter truncated;

        ToolMeters(String tool) {
            this.tool = tool;
            this.latency = Timer.builder("serverfs.tool.call")
                    .description("Tool call latency, from the request's arguments to its result")
                    .tag("tool", tool)
                    .serviceLevelObjectives(BUCKETS)
                    .register(registry);
        }

        void record(ToolCall event) {
            latency.record(event.duration().toNanos(), TimeUnit.NANOSECONDS);
            String code = event.errorCode().orElse(OK);
            Counter c = calls.get(code);
            (c != null ? c : calls.computeIfAbsent(code, this::counter)).increment();
            if (Boolean.TRUE.equals(event.counters().get("truncated"))) {
                Counter t = truncated;
                if (t == null) {
                    t = Counter.builder("serverfs.tool.results.truncated")
                            .description("Successful calls whose answer was cut by a budget or limit")
                            .tag("tool", tool)
                            .register(registry);
                    truncated = t;
                }
                t.increment();
            }
        }

        private Counter counter(String code) {
            return Counter.builder("serverfs.tool.calls")
                    .description("Tool calls by tool and result code (OK or the stable error code)")
                    .tag("tool", tool)
                    .tag("code", code)
                    .register(registry);
        }
    }
}
