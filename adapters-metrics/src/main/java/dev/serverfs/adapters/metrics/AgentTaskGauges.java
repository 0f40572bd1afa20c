package dev.serverfs.adapters.metrics;

import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.Task;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The embedded Agent service's live tasks, read from the task store once per scrape: {@code
 * serverfs_agent_tasks{status,runtime}} (non-terminal tasks), {@code serverfs_agent_waiting_on_human} (tasks
 * waiting for an approval or an answer) and {@code serverfs_agent_waiting_on_human_oldest_seconds} (how long the
 * oldest of them has waited, 0 when none).
 */
public final class AgentTaskGauges {

    private final TaskStore store;
    private final Clock clock;
    private final MultiGauge tasks;
    private final AtomicLong waiting = new AtomicLong();
    private final AtomicLong oldestWaitMillis = new AtomicLong();

    private AgentTaskGauges(TaskStore store, Clock clock, PrometheusMetrics metrics) {
        this.store = store;
        this.clock = clock;
        this.tasks = MultiGauge.builder("serverfs.agent.tasks")
                .description("Live (non-terminal) Agent tasks by status and runtime")
                .register(metrics.registry());
        Gauge.builder("serverfs.agent.waiting.on.human", waiting, AtomicLong::get)
                .description("Agent tasks waiting for an approval or an answer")
                .register(metrics.registry());
        Gauge.builder("serverfs.agent.waiting.on.human.oldest", oldestWaitMillis, v -> v.get() / 1000.0)
                .description("How long the oldest task waiting for an approval or an answer has waited")
                .baseUnit("seconds")
                .register(metrics.registry());
    }

    /** Registers the gauges and refreshes them before every scrape. */
    public static AgentTaskGauges register(TaskStore store, Clock clock, PrometheusMetrics metrics) {
        AgentTaskGauges gauges = new AgentTaskGauges(store, clock, metrics);
        gauges.refresh();
        metrics.beforeScrape(gauges::refresh);
        return gauges;
    }

    /** Reads the live tasks once and updates every gauge. */
    void refresh() {
        Map<Tags, Integer> counts = new HashMap<>();
        long waitingNow = 0;
        long oldest = 0;
        long now = clock.millis();
        for (Task t : store.list(false)) {
            counts.merge(
                    Tags.of("status", t.status().wire(), "runtime", t.runtime().wire()), 1, Integer::sum);
            if (t.status().isWaiting()) {
                waitingNow++;
                Instant since = t.pendingRequestId()
                        .flatMap(store::findRequest)
                        .map(PendingRequest::createdAt)
                        .orElse(t.updatedAt());
                oldest = Math.max(oldest, now - since.toEpochMilli());
            }
        }
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        counts.forEach((tags, n) -> rows.add(MultiGauge.Row.of(tags, n)));
        tasks.register(rows, true);
        waiting.set(waitingNow);
        oldestWaitMillis.set(oldest);
    }
}
