package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.serverfs.bootstrap.bridge.BridgeCommand;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
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
 * The split deployment's metrics (issue 27 item 1): {@code serverfs bridge} hosts the Agent service, so its own
 * {@code /metrics} listener ({@code SERVERFS_AGENT_BRIDGE_METRICS_PORT}) carries the Agent task gauges, while the
 * split {@code serve} reading the same variables carries the tool calls and the Bridge's reachability on {@code
 * SERVERFS_METRICS_PORT}. A real Prometheus scrapes both; a task waiting for an approval must show on the Bridge's
 * target, and the Bridge counts the requests serve sent it. The listener's start-up refusals: a bad setting exits 2, a taken port exits 1 naming the address.
 */
class BridgeMetricsIT {

    private static final Duration WAIT = PrometheusServer.WAIT;

    @TempDir
    Path dir;

    /** The one set of variables both processes read, as from one env file on one host. */
    private Map<String, String> env(int serveMetricsPort, int bridgeMetricsPort) throws Exception {
        Files.createDirectories(dir.resolve("proj"));
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_METRICS_PORT", Integer.toString(serveMetricsPort));
        env.put("SERVERFS_AGENT_BRIDGE_METRICS_PORT", Integer.toString(bridgeMetricsPort));
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        env.put(
                "SERVERFS_AGENT_BRIDGE_SOCKET",
                dir.resolve("run").resolve("bridge.sock").toString());
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", dir.resolve("state").toString());
        env.put("SERVERFS_AGENT_LOCK_DIR", dir.resolve("locks").toString());
        env.put("WORKDIR_01_ALIAS", "proj");
        env.put("WORKDIR_01_PATH", dir.resolve("proj").toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "fake");
        return env;
    }

    @Test
    void prometheus_sees_the_task_waiting_on_a_human_on_the_bridges_target() throws Exception {
        Optional<Path> binary = PrometheusServer.binary();
        if (binary.isEmpty()) {
            System.out.println(PrometheusServer.SKIPPED);
        }
        assumeTrue(binary.isPresent(), PrometheusServer.SKIPPED);
        int servePort = ServeProcess.freePort();
        int bridgePort = ServeProcess.freePort();
        Map<String, String> env = env(servePort, bridgePort);
        try (ServeProcess bridge = BridgeProcess.startReady(env);
                ServeProcess serve = ServeProcess.start(env);
                PrometheusServer prom =
                        PrometheusServer.start(binary.get(), dir, Map.of("serve", servePort, "bridge", bridgePort))) {
            McpTestClient mcp = new McpTestClient(serve.awaitUrl(WAIT));
            prom.await("up{job=\"bridge\"}", v -> v == 1, "the Bridge's target is up");
            prom.await("up{job=\"serve\"}", v -> v == 1, "serve's target is up");
            prom.await("serverfs_agent_waiting_on_human{job=\"bridge\"}", v -> v == 0, "nothing waits yet");
            String taskId = mcp.call("submit_agent_task", AgentScenarios.submit("proj", "fake", "approval:make notes"))
                    .ok()
                    .get("task_id")
                    .asText();
            try {
                prom.await(
                        "serverfs_agent_waiting_on_human{job=\"bridge\"}",
                        v -> v == 1,
                        "the task waiting for an approval, on the Bridge's target");
                prom.await(
                        "sum(serverfs_agent_tasks{job=\"bridge\",status=\"waiting_for_approval\",runtime=\"fake\"})",
                        v -> v == 1,
                        "the waiting task by status and runtime");
                prom.await(
                        "serverfs_agent_recovery_guards{job=\"bridge\"}",
                        v -> v == 1,
                        "the waiting workspace-write task's guard");
                prom.await(
                        "serverfs_agent_waiting_on_human_oldest_seconds{job=\"bridge\"}",
                        v -> v >= 0 && v < WAIT.toSeconds() * 2,
                        "the age of the wait");
                prom.await("process_uptime_seconds{job=\"bridge\"}", v -> v > 0, "the process basics");
                prom.await(
                        "serverfs_bridge_requests_total{job=\"bridge\"}",
                        v -> v >= 1,
                        "the Bridge counted serve's calls (the submit at least)");
                prom.await(
                        "serverfs_bridge_refused_total{job=\"bridge\",reason=\"peer_not_authorized\"}",
                        v -> v == 0,
                        "no peer refused");
                prom.await("serverfs_agent_bridge_up{job=\"serve\"}", v -> v == 1, "serve reaches the Bridge");
                assertEquals(
                        OptionalDouble.empty(),
                        prom.value("serverfs_agent_waiting_on_human{job=\"serve\"}"),
                        "a split serve hosts no tasks, so shows no task gauges");
                assertEquals(
                        OptionalDouble.empty(),
                        prom.value("serverfs_tool_calls_total{job=\"bridge\"}"),
                        "the Bridge serves no tools");
                String exposition = PrometheusServer.HTTP
                        .send(
                                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + bridgePort + "/metrics"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body();
                for (String secret : List.of("make notes", dir.toString())) {
                    assertTrue(!exposition.contains(secret), "no path or prompt in the Bridge's exposition");
                }
                assertTrue(bridge.awaitLine(l -> l.contains("\"metrics_listening\""), WAIT)
                        .isPresent());
            } finally {
                mcp.call("cancel_agent_task", Map.of("task_id", taskId));
            }
            prom.await(
                    "serverfs_agent_waiting_on_human{job=\"bridge\"}", v -> v == 0, "the cancelled task waits no more");
        }
    }

    @Test
    void a_taken_bridge_metrics_port_stops_the_bridge_naming_the_metrics_address() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ServeProcess bridge = BridgeProcess.startRefused(env(ServeProcess.freePort(), taken.getLocalPort()))) {
            assertEquals(
                    BridgeCommand.EXIT_CANNOT_LISTEN,
                    bridge.waitForExit(WAIT),
                    bridge.stderr().toString());
            String expected = "ServerFS: cannot listen on 127.0.0.1:" + taken.getLocalPort() + ": ";
            assertTrue(
                    bridge.stderr().stream().anyMatch(l -> l.startsWith(expected)),
                    "names the metrics address: " + bridge.stderr());
        }
    }

    @Test
    void a_non_loopback_bridge_metrics_host_without_the_token_is_refused_with_exit_2() throws Exception {
        Map<String, String> env = env(ServeProcess.freePort(), ServeProcess.freePort());
        env.put("SERVERFS_AGENT_BRIDGE_METRICS_HOST", "0.0.0.0");
        try (ServeProcess bridge = BridgeProcess.startRefused(env)) {
            assertEquals(2, bridge.waitForExit(WAIT), bridge.stderr().toString());
            assertTrue(
                    bridge.stderr().stream()
                            .anyMatch(l -> l.equals("ServerFS: configuration error: SERVERFS_AGENT_BRIDGE_METRICS_HOST"
                                    + " is not a loopback address, so SERVERFS_AUTH_TOKEN must be set")),
                    bridge.stderr().toString());
            assertTrue(!Files.exists(dir.resolve("state")), "no task store");
        }
    }
}
