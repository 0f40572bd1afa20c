package dev.serverfs.adapters.metrics;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

class PrometheusMetricsTest {

    @Test
    void a_function_counter_reads_its_total_at_each_scrape() {
        try (PrometheusMetrics metrics = new PrometheusMetrics()) {
            AtomicLong total = new AtomicLong(3);
            metrics.counter("serverfs.test.refused", "refusals", total::get, "reason", "connections");
            assertTrue(metrics.scrape().contains("serverfs_test_refused_total{reason=\"connections\"} 3.0"));
            total.set(5);
            assertTrue(metrics.scrape().contains("serverfs_test_refused_total{reason=\"connections\"} 5.0"));
        }
    }

    @Test
    void a_function_counter_keeps_counting_after_a_garbage_collection() {
        try (PrometheusMetrics metrics = new PrometheusMetrics()) {
            AtomicLong total = new AtomicLong(1);
            // The method reference is a fresh object nobody else holds: Micrometer keeps only a weak reference to it.
            metrics.counter("serverfs.test.requests", "requests", total::get, "era", "session");
            assertTrue(metrics.scrape().contains("serverfs_test_requests_total{era=\"session\"} 1.0"));
            WeakReference<Object> canary = new WeakReference<>(new Object());
            Instant deadline = Instant.now().plusSeconds(10);
            while (canary.get() != null && Instant.now().isBefore(deadline)) {
                System.gc();
            }
            assertNull(canary.get(), "a full collection ran");
            total.set(30);
            String exposition = metrics.scrape();
            assertTrue(exposition.contains("serverfs_test_requests_total{era=\"session\"} 30.0"), exposition);
        }
    }

    @Test
    void a_latency_lands_in_the_tool_calls_buckets() {
        try (PrometheusMetrics metrics = new PrometheusMetrics()) {
            LongConsumer hops = metrics.latency("serverfs.test.hop", "round trips");
            hops.accept(300_000); // 0.3 ms: above the 0.25 ms bound, within 0.5 ms
            String exposition = metrics.scrape();
            assertTrue(exposition.contains("serverfs_test_hop_seconds_bucket{le=\"2.5E-4\"} 0"), exposition);
            assertTrue(exposition.contains("serverfs_test_hop_seconds_bucket{le=\"5.0E-4\"} 1"), exposition);
            assertTrue(exposition.contains("serverfs_test_hop_seconds_count 1"), exposition);
        }
    }
}
