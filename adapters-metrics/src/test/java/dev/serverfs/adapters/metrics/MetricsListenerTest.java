package dev.serverfs.adapters.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.out.AuditLog;
import java.net.InetAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricsListenerTest {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void countsToolCallsByToolAndCodeAndNeverLabelsAPath() throws Exception {
        List<AuditLog.ToolCall> seen = new ArrayList<>();
        try (PrometheusMetrics metrics = new PrometheusMetrics();
                MetricsListener listener = MetricsListener.start("127.0.0.1", 0, Optional.empty(), metrics)) {
            AuditLog audit = new MeteredAuditLog(seen::add, metrics.registry());
            audit.toolCall(AuditLog.ToolCall.succeeded(
                    "stat_file", Duration.ofMillis(3), Optional.of("docs"), Optional.of("secret/plan.txt"), Map.of()));
            audit.toolCall(AuditLog.ToolCall.succeeded(
                    "stat_file", Duration.ofMillis(5), Optional.of("docs"), Optional.of("b.txt"), Map.of()));
            audit.toolCall(AuditLog.ToolCall.failed(
                    "read_text_file", Duration.ofMillis(1), Optional.of("docs"), Optional.of("x"), "NOT_FOUND"));

            HttpResponse<String> r = get(listener, "/metrics", Optional.empty());
            assertEquals(200, r.statusCode());
            assertEquals(
                    MetricsListener.CONTENT_TYPE,
                    r.headers().firstValue("content-type").orElseThrow());
            String body = r.body();
            assertTrue(body.contains("serverfs_tool_calls_total{code=\"OK\",tool=\"stat_file\"} 2.0"), body);
            assertTrue(
                    body.contains("serverfs_tool_calls_total{code=\"NOT_FOUND\",tool=\"read_text_file\"} 1.0"), body);
            assertTrue(body.contains("serverfs_tool_call_seconds_bucket{tool=\"stat_file\",le=\"+Inf\"} 2"), body);
            assertTrue(body.contains("serverfs_tool_call_seconds_count{tool=\"stat_file\"} 2"), body);
            assertTrue(body.contains("serverfs_tool_call_seconds_bucket{tool=\"stat_file\",le=\"0.0025\"} 0"), body);
            assertTrue(body.contains("serverfs_tool_call_seconds_bucket{tool=\"stat_file\",le=\"0.005\"} 2"), body);
            assertTrue(body.contains("jvm_memory_used_bytes"), "the JVM binders are bound");
            assertTrue(body.contains("process_uptime_seconds"), "the process binders are bound");
            assertFalse(body.contains("plan.txt") || body.contains("secret"), "no path in a label");
            assertEquals(3, seen.size(), "every event still reaches the audit log");
        }
    }

    @Test
    void countsAnswersCutByABudget() {
        try (PrometheusMetrics metrics = new PrometheusMetrics()) {
            AuditLog audit = new MeteredAuditLog(e -> {}, metrics.registry());
            audit.toolCall(AuditLog.ToolCall.succeeded(
                    "search_text",
                    Duration.ofMillis(9),
                    Optional.of("docs"),
                    Optional.empty(),
                    Map.of("truncated", true)));
            audit.toolCall(AuditLog.ToolCall.succeeded(
                    "search_text",
                    Duration.ofMillis(9),
                    Optional.of("docs"),
                    Optional.empty(),
                    Map.of("truncated", false)));
            String body = metrics.scrape();
            assertTrue(body.contains("serverfs_tool_results_truncated_total{tool=\"search_text\"} 1.0"), body);
        }
    }

    @Test
    void theBridgeGaugeFollowsItsSocket(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("bridge.sock");
        try (PrometheusMetrics metrics = new PrometheusMetrics()) {
            BridgeGauges.register(socket, metrics);
            assertTrue(metrics.scrape().contains("serverfs_agent_bridge_up 0.0"), "no socket: down");
            try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
                server.bind(UnixDomainSocketAddress.of(socket));
                assertTrue(metrics.scrape().contains("serverfs_agent_bridge_up 1.0"), "listening: up");
            }
            Files.deleteIfExists(socket);
            assertTrue(metrics.scrape().contains("serverfs_agent_bridge_up 0.0"), "gone again: down");
        }
    }

    @Test
    void aRequiredTokenGuardsTheEndpoint() throws Exception {
        try (PrometheusMetrics metrics = new PrometheusMetrics();
                MetricsListener listener =
                        MetricsListener.start("127.0.0.1", 0, Optional.of("s3cret-token"), metrics)) {
            assertEquals(401, get(listener, "/metrics", Optional.empty()).statusCode());
            assertEquals(401, get(listener, "/metrics", Optional.of("wrong")).statusCode());
            HttpResponse<String> ok = get(listener, "/metrics", Optional.of("s3cret-token"));
            assertEquals(200, ok.statusCode());
            assertTrue(ok.body().contains("jvm_threads_live_threads"));
        }
    }

    @Test
    void withoutATokenOnlyALoopbackHostNameIsServed() throws Exception {
        try (PrometheusMetrics metrics = new PrometheusMetrics();
                MetricsListener listener = MetricsListener.start("127.0.0.1", 0, Optional.empty(), metrics)) {
            int port = listener.address().getPort();
            for (String host : List.of("127.0.0.1:" + port, "localhost:" + port, "127.1.2.3", "[::1]:" + port)) {
                assertEquals(200, rawStatus(listener, host), host);
            }
            for (String host :
                    List.of("rebound.example:" + port, "127.evil.example", "127.0.0.1.evil.example", "10.0.0.1")) {
                assertEquals(421, rawStatus(listener, host), host); // a DNS-rebinding page's own name
            }
        }
        try (PrometheusMetrics metrics = new PrometheusMetrics();
                MetricsListener listener =
                        MetricsListener.start("127.0.0.1", 0, Optional.of("s3cret-token"), metrics)) {
            assertEquals(401, rawStatus(listener, "scraper.internal:9464"), "with a token, any Host reaches the check");
        }
    }

    /** The status of a raw {@code GET /metrics} with this {@code Host} (Java's HttpClient will not set one). */
    private static int rawStatus(MetricsListener listener, String host) throws Exception {
        try (Socket socket =
                new Socket(InetAddress.getLoopbackAddress(), listener.address().getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream()
                    .write(("GET /metrics HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            String status = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            return Integer.parseInt(status.substring(9, 12));
        }
    }

    @Test
    void onlyGetOfMetricsIsServed() throws Exception {
        try (PrometheusMetrics metrics = new PrometheusMetrics();
                MetricsListener listener = MetricsListener.start("127.0.0.1", 0, Optional.empty(), metrics)) {
            assertEquals(404, get(listener, "/mcp", Optional.empty()).statusCode());
            HttpResponse<String> post = HTTP.send(
                    HttpRequest.newBuilder(uri(listener, "/metrics"))
                            .POST(HttpRequest.BodyPublishers.ofString("x"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(405, post.statusCode());
        }
    }

    @Test
    void closeLetsAScrapeInFlightFinishAndRefusesTheNextRequest() throws Exception {
        CountDownLatch scraping = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (PrometheusMetrics metrics = new PrometheusMetrics()) {
            metrics.beforeScrape(() -> {
                scraping.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            MetricsListener listener = MetricsListener.start("127.0.0.1", 0, Optional.empty(), metrics);
            CompletableFuture<HttpResponse<String>> inFlight = HTTP.sendAsync(
                    HttpRequest.newBuilder(uri(listener, "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            scraping.await();
            Thread closer = Thread.ofPlatform().start(listener::close);
            // The scrape is released only once close() waits for it, so close() cannot have stopped before it.
            while (closer.getState() != Thread.State.WAITING && closer.getState() != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait();
            }
            assertEquals(503, rawStatus(listener, "127.0.0.1"), "no new scrape once closing");
            release.countDown();
            HttpResponse<String> answered = inFlight.get(30, TimeUnit.SECONDS);
            closer.join();
            assertEquals(200, answered.statusCode());
            assertTrue(answered.body().contains("jvm_memory_used_bytes"), "the whole exposition, not a cut one");
        }
    }

    @Test
    void aFailingRefresherDoesNotFailTheScrape() {
        try (PrometheusMetrics metrics = new PrometheusMetrics()) {
            metrics.beforeScrape(() -> {
                throw new IllegalStateException("store closed");
            });
            assertTrue(metrics.scrape().contains("jvm_memory_used_bytes"));
        }
    }

    private static HttpResponse<String> get(MetricsListener listener, String path, Optional<String> token)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(listener, path)).timeout(Duration.ofSeconds(10));
        token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(MetricsListener listener, String path) {
        return URI.create("http://127.0.0.1:" + listener.address().getPort() + path);
    }
}
