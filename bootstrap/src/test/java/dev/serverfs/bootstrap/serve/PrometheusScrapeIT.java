package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real scrape (issue 27 item 2): Debian's {@code prometheus}, started here with a generated scrape config, scrapes
 * a real {@code serve} (embedded Agent, fake runtime) on loopback while the test drives tool calls; Prometheus's
 * HTTP API must then report the tool-call counter, a latency quantile and the waiting-on-a-human gauge moving as
 * the traffic says. Skipped in one line where no {@code prometheus} binary is installed.
 */
class PrometheusScrapeIT {

    private static final Duration WAIT = PrometheusServer.WAIT;
    private static final HttpClient HTTP = PrometheusServer.HTTP;
    private static final int STATS = 25;
    private static final int MISSES = 3;

    @Test
    void prometheus_scrapes_tool_calls_latency_and_tasks_waiting_on_a_human(@TempDir Path dir) throws Exception {
        Optional<Path> binary = PrometheusServer.binary();
        if (binary.isEmpty()) {
            System.out.println(PrometheusServer.SKIPPED);
        }
        assumeTrue(binary.isPresent(), PrometheusServer.SKIPPED);
        Path proj = Files.createDirectories(dir.resolve("proj"));
        Files.writeString(proj.resolve("README.md"), "hello\n");
        int metricsPort = ServeProcess.freePort();
        try (ServeProcess serve = ServeProcess.start(env(dir, metricsPort))) {
            McpTestClient mcp = new McpTestClient(serve.awaitUrl(WAIT));
            try (PrometheusServer prom = PrometheusServer.start(binary.get(), dir, Map.of("serverfs", metricsPort))) {
                prom.await("up{job=\"serverfs\"}", v -> v == 1, "the target is up");
                // Before the traffic: no stat_file call has been counted yet.
                assertEquals(
                        OptionalDouble.empty(),
                        prom.value("serverfs_tool_calls_total{tool=\"stat_file\"}"),
                        "no stat_file call counted before the traffic");

                for (int i = 0; i < STATS; i++) {
                    mcp.call("stat_file", Map.of("workdir", "proj", "path", "README.md"))
                            .ok();
                }
                for (int i = 0; i < MISSES; i++) {
                    assertEquals(
                            "PATH_NOT_FOUND",
                            mcp.call("read_text_file", Map.of("workdir", "proj", "path", "missing.txt"))
                                    .code());
                }
                String taskId = mcp.call(
                                "submit_agent_task", AgentScenarios.submit("proj", "fake", "approval:make notes"))
                        .ok()
                        .get("task_id")
                        .asText();
                try {
                    prom.await(
                            "sum(serverfs_tool_calls_total{tool=\"stat_file\",code=\"OK\"})",
                            v -> v == STATS,
                            "every stat_file call counted as OK");
                    prom.await(
                            "sum(serverfs_tool_calls_total{tool=\"read_text_file\",code=\"PATH_NOT_FOUND\"})",
                            v -> v == MISSES,
                            "the failed reads counted by their code");
                    prom.await(
                            "histogram_quantile(0.9, sum by (le) (serverfs_tool_call_seconds_bucket{tool=\"stat_file\"}))",
                            v -> v > 0 && v < 5,
                            "a stat_file latency quantile within (0, 5) seconds");
                    prom.await("serverfs_agent_waiting_on_human", v -> v == 1, "the task waiting for an approval");
                    prom.await(
                            "sum(serverfs_agent_tasks{status=\"waiting_for_approval\",runtime=\"fake\"})",
                            v -> v == 1,
                            "the waiting task by status and runtime");
                    String exposition = HTTP.send(
                                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body();
                    assertTrue(exposition.contains("serverfs_tool_calls_total{"), "the exposition has the counter");
                    assertFalse(
                            exposition.contains("serverfs_agent_bridge_"),
                            "an embedded Agent has no Bridge hop to measure");
                    assertTrue(exposition.contains("serverfs_searches{state=\"running\"} 0.0"), "no search runs now");
                    assertTrue(exposition.contains("serverfs_searches{state=\"queued\"} 0.0"), "none waits");
                    assertTrue(exposition.contains("serverfs_mcp_sessions 1.0"), "the test client's one session");
                    assertTrue(
                            exposition.contains("serverfs_mcp_refused_total{reason=\"body_too_large\"} 0.0"),
                            "nothing refused");
                    assertTrue(
                            exposition.contains("serverfs_agent_recovery_guards 1.0"),
                            "the waiting workspace-write task's guard");
                    prom.await(
                            "serverfs_mcp_requests_total{era=\"session\"}",
                            v -> v >= STATS + MISSES + 2,
                            "the session's requests (initialize, the calls) counted by era");
                    for (String secret : List.of("README.md", "missing.txt", "make notes", dir.toString())) {
                        assertTrue(!exposition.contains(secret), "no path or prompt in the exposition");
                    }
                    assertTrue(serve.awaitLine(l -> l.contains("\"metrics_listening\""), WAIT)
                            .isPresent());
                } finally {
                    mcp.call("cancel_agent_task", Map.of("task_id", taskId));
                }
            }
        }
    }

    @Test
    void a_taken_metrics_port_stops_serve_naming_the_metrics_address(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("proj"));
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ServeProcess serve = ServeProcess.start(env(dir, taken.getLocalPort()))) {
            assertEquals(ServeCommand.EXIT_CANNOT_LISTEN, serve.waitForExit(WAIT));
            String expected = "ServerFS: cannot listen on 127.0.0.1:" + taken.getLocalPort() + ": ";
            assertTrue(
                    serve.stderr().stream().anyMatch(l -> l.startsWith(expected)),
                    "names the metrics address: " + serve.stderr());
        }
    }

    private static Map<String, String> env(Path dir, int metricsPort) throws IOException {
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_METRICS_PORT", Integer.toString(metricsPort));
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_EMBEDDED", "true");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", dir.resolve("state").toString());
        env.put("SERVERFS_AGENT_LOCK_DIR", dir.resolve("locks").toString());
        env.put("WORKDIR_01_ALIAS", "proj");
        env.put("WORKDIR_01_PATH", dir.resolve("proj").toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "fake");
        return env;
    }
}
