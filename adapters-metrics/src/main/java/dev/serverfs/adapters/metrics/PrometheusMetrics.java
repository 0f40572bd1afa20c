package dev.serverfs.adapters.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's meter registry: Micrometer's Prometheus registry with the JVM and process binders bound, plus
 * refreshers that update snapshot gauges once per scrape (so a scrape costs one store query, not one per gauge).
 */
public final class PrometheusMetrics implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PrometheusMetrics.class);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final List<Runnable> beforeScrape = new CopyOnWriteArrayList<>();
    /** The counters' totals: Micrometer holds a function counter's object weakly, and a lambda has no other holder. */
    private final List<LongSupplier> totals = new CopyOnWriteArrayList<>();

    public PrometheusMetrics() {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    /** The registry meters are registered in. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /**
     * A gauge read at each scrape from another adapter's counts (the composition root passes a method reference):
     * {@code tags} are key-value pairs of fixed names, never a path or a user's text.
     */
    public void gauge(String name, String description, Supplier<Number> value, String... tags) {
        Gauge.builder(name, value).description(description).tags(tags).register(registry);
    }

    /**
     * A counter read at each scrape from another adapter's running total (never reset); {@code tags} as for {@link
     * #gauge}.
     */
    public void counter(String name, String description, LongSupplier total, String... tags) {
        totals.add(total);
        FunctionCounter.builder(name, total, LongSupplier::getAsLong)
                .description(description)
                .tags(tags)
                .register(registry);
    }

    /** A latency histogram with the tool calls' buckets, fed in nanoseconds through the returned consumer. */
    public LongConsumer latency(String name, String description) {
        Timer timer = Timer.builder(name)
                .description(description)
                .serviceLevelObjectives(MeteredAuditLog.BUCKETS)
                .register(registry);
        return nanos -> timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Runs {@code refresher} before every scrape; a failing refresher is logged and skipped, never fatal. */
    public void beforeScrape(Runnable refresher) {
        beforeScrape.add(refresher);
    }

    /** The Prometheus text exposition of every meter, after running the refreshers. */
    public String scrape() {
        for (Runnable r : beforeScrape) {
            try {
                r.run();
            } catch (RuntimeException e) {
                log.atWarn()
                        .setMessage("metrics_refresh_failed")
                        .addKeyValue("error_type", e.getClass().getSimpleName())
                        .log();
            }
        }
        return registry.scrape();
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
