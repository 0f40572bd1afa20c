package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.DoublePredicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Debian's {@code prometheus}, started by a test on loopback with a generated scrape config (one job per target,
 * scraped every second), and its HTTP API: instant queries, polled against a deadline. Closing stops it.
 */
final class PrometheusServer implements AutoCloseable {

    /** The one line a test prints when it skips for want of the binary. */
    static final String SKIPPED =
            "prometheus-scrape: skipped: no prometheus binary on the PATH (Debian: apt-get install prometheus)";

    static final Duration WAIT = Duration.ofSeconds(60);
    static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final int port;

    private PrometheusServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** The {@code prometheus} binary on the PATH, if any. */
    static Optional<Path> binary() {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Stream.of(path.split(File.pathSeparator))
                .filter(p -> !p.isEmpty())
                .map(p -> Path.of(p, "prometheus"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** Starts {@code binary} scraping {@code 127.0.0.1:<port>/metrics} for each job, its files under {@code dir}. */
    static PrometheusServer start(Path binary, Path dir, Map<String, Integer> portsByJob) throws IOException {
        String jobs = portsByJob.entrySet().stream()
                .map(job -> """
                          - job_name: %s
                            metrics_path: /metrics
                            static_configs:
                              - targets: ["127.0.0.1:%d"]
                        """.formatted(job.getKey(), job.getValue()))
                .collect(Collectors.joining());
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                scrape_configs:
                """ + jobs);
        int port = ServeProcess.freePort();
        Process process = new ProcessBuilder(
                        binary.toString(),
                        "--config.file=" + config,
                        "--storage.tsdb.path=" + dir.resolve("tsdb"),
                        "--web.listen-address=127.0.0.1:" + port,
                        "--log.level=warn")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
        return new PrometheusServer(process, port);
    }

    /** Polls {@code query} until its single value satisfies {@code expected} or {@link #WAIT} passes. */
    void await(String query, DoublePredicate expected, String what) throws Exception {
        Instant deadline = Instant.now().plus(WAIT);
        OptionalDouble last = OptionalDouble.empty();
        while (Instant.now().isBefore(deadline)) {
            last = value(query);
            if (last.isPresent() && expected.test(last.getAsDouble())) {
                return;
            }
            // Bounded polling: Prometheus scrapes every second; ask again every 200 ms until the deadline.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
        throw new AssertionError(what + ": " + query + " is " + last + " after " + WAIT);
    }

    /** The value of an instant query answering one sample, else empty. */
    OptionalDouble value(String query) throws IOException, InterruptedException {
        URI uri = URI.create(
                "http://127.0.0.1:" + port + "/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8));
        HttpResponse<String> r;
        try {
            r = HTTP.send(
                    HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException notYetListening) {
            return OptionalDouble.empty();
        }
        if (r.statusCode() != 200) {
            return OptionalDouble.empty();
        }
        JsonNode body = JSON.readTree(r.body());
        assertEquals("success", body.path("status").asText(), r.body());
        JsonNode result = body.path("data").path("result");
        if (result.size() != 1) {
            return OptionalDouble.empty();
        }
        double v = Double.parseDouble(result.get(0).path("value").get(1).asText());
        assertTrue(!Double.isInfinite(v), query + " is infinite");
        return Double.isNaN(v) ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
