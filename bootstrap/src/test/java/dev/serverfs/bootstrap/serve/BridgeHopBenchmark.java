package dev.serverfs.bootstrap.serve;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a test (never in the normal run; BENCHMARKS.md "The Bridge socket hop"): {@code get_agent_task} latency with
 * the Agent service embedded in {@code serve} and with it in a separate {@code serverfs bridge} process behind the
 * Unix socket, side by side: both deployments run at once (real child processes, real SQLite, the fake runtime),
 * each holds one finished task, and the timed calls alternate between them in rounds so that a change of machine
 * load hits both alike. Prints median and p99 per deployment and the load average before and after.
 *
 * <pre>mvn -B -q -pl bootstrap -am verify -Dtest=BridgeHopBenchmark -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
class BridgeHopBenchmark {
    private static final int ROUNDS = Integer.getInteger("hopBench.rounds", 10);
    private static final int PER_ROUND = Integer.getInteger("hopBench.calls", 100);
    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void measure(@TempDir Path dir) throws Exception {
        Map<String, String> embeddedEnv = env(dir.resolve("embedded"));
        embeddedEnv.put("SERVERFS_AGENT_EMBEDDED", "true");
        Map<String, String> splitEnv = env(dir.resolve("split"));
        splitEnv.put(
                "SERVERFS_AGENT_BRIDGE_SOCKET",
                dir.resolve("split/run/bridge.sock").toString());
        String before = loadAverage();
        try (ServeProcess embedded = ServeProcess.start(embeddedEnv);
                ServeProcess _ = BridgeProcess.startReady(splitEnv);
                ServeProcess split = ServeProcess.start(splitEnv)) {
            McpTestClient[] clients = {
                new McpTestClient(embedded.awaitUrl(WAIT)), new McpTestClient(split.awaitUrl(WAIT))
            };
            String[] tasks = {finishedTask(clients[0]), finishedTask(clients[1])};
            List<List<Long>> nanos = List.of(new ArrayList<>(), new ArrayList<>());
            for (int round = -1; round < ROUNDS; round++) { // round -1 warms both up
                for (int d = 0; d < 2; d++) {
                    for (int i = 0; i < PER_ROUND; i++) {
                        long t0 = System.nanoTime();
                        clients[d]
                                .call("get_agent_task", Map.of("task_id", tasks[d]))
                                .ok();
                        long t1 = System.nanoTime();
                        if (round >= 0) {
                            nanos.get(d).add(t1 - t0);
                        }
                    }
                }
            }
            System.out.println("HOP-BENCH load average before: " + before + ", after: " + loadAverage());
            report("get_agent_task embedded", nanos.get(0));
            report("get_agent_task split (Bridge socket)", nanos.get(1));
        }
    }

    private static Map<String, String> env(Path root) throws Exception {
        Path rev = Files.createDirectories(root.resolve("rev"));
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_LOG_LEVEL", "WARNING");
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", root.resolve("state").toString());
        env.put("SERVERFS_AGENT_LOCK_DIR", root.resolve("locks").toString());
        env.put("WORKDIR_01_ALIAS", "rev");
        env.put("WORKDIR_01_PATH", rev.toString());
        env.put("WORKDIR_01_AGENT_MODE", "review");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "fake");
        return env;
    }

    private static String finishedTask(McpTestClient mcp) throws Exception {
        String id = AgentServeIT.created(
                mcp.call("submit_agent_task", AgentServeIT.submit("rev", "fake", "complete:bench", "review")));
        Instant deadline = Instant.now().plus(WAIT);
        while (Instant.now().isBefore(deadline)) {
            JsonNode task = mcp.call("get_agent_task", Map.of("task_id", id)).ok();
            if (!task.path("completed_at").isNull()
                    && !task.path("completed_at").isMissingNode()) {
                return id;
            }
            LockSupport.parkNanos(10_000_000);
        }
        throw new AssertionError("task did not end: " + id);
    }

    private static String loadAverage() throws Exception {
        String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return f[0] + " " + f[1] + " " + f[2];
    }

    private static void report(String name, List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        double median = sorted.get(sorted.size() / 2) / 1e6;
        double p99 = sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1)) / 1e6;
        System.out.printf("HOP-BENCH %-38s n=%d median=%.2f ms p99=%.2f ms%n", name, sorted.size(), median, p99);
    }
}
