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
 * Not a test (never in the normal run; BENCHMARKS.md "Agent tools over MCP"): latency of {@code submit_agent_task}
 * (new task, review profile), of an idempotent retry (same key, same inputs) and of {@code get_agent_task}, over
 * real HTTP against a real {@code serve} child with the embedded Agent service and the fake runtime. Each new task
 * is awaited to its end before the next submit (not timed) so active-task limits and provider children do not
 * pile up. Prints median and p99 per operation.
 *
 * <pre>mvn -B -q -pl bootstrap -am verify -Dtest=AgentToolsBenchmark -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
class AgentToolsBenchmark {
    private static final int SUBMITS = Integer.getInteger("agentBench.submits", 40);
    private static final int READS = Integer.getInteger("agentBench.reads", 500);

    @Test
    void measure(@TempDir Path dir) throws Exception {
        Path rev = Files.createDirectories(dir.resolve("rev"));
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_LOG_LEVEL", "WARN");
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_EMBEDDED", "true");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", dir.resolve("state").toString());
        env.put("SERVERFS_AGENT_LOCK_DIR", dir.resolve("locks").toString());
        env.put("WORKDIR_01_ALIAS", "rev");
        env.put("WORKDIR_01_PATH", rev.toString());
        env.put("WORKDIR_01_AGENT_MODE", "review");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "fake");
        try (ServeProcess serve = ServeProcess.start(env)) {
            McpTestClient mcp = new McpTestClient(serve.awaitUrl(Duration.ofSeconds(120)));
            List<Long> submit = new ArrayList<>();
            List<Long> retry = new ArrayList<>();
            List<Long> get = new ArrayList<>();
            String last = null;
            for (int i = -5; i < SUBMITS; i++) { // 5 warm-up submits
                Map<String, Object> args = AgentServeIT.submit("rev", "fake", "complete:bench " + i, "review");
                args.put("idempotency_key", "bench-" + i);
                long t0 = System.nanoTime();
                String id = AgentServeIT.created(mcp.call("submit_agent_task", args));
                long t1 = System.nanoTime();
                if (i >= 0) {
                    submit.add(t1 - t0);
                }
                awaitEnd(mcp, id);
                last = id;
            }
            Map<String, Object> again = AgentServeIT.submit("rev", "fake", "complete:bench 0", "review");
            again.put("idempotency_key", "bench-0");
            for (int i = -50; i < READS; i++) {
                long t0 = System.nanoTime();
                AgentServeIT.created(mcp.call("submit_agent_task", again));
                long t1 = System.nanoTime();
                mcp.call("get_agent_task", Map.of("task_id", last)).ok();
                long t2 = System.nanoTime();
                if (i >= 0) {
                    retry.add(t1 - t0);
                    get.add(t2 - t1);
                }
            }
            report("submit_agent_task (new task)", submit);
            report("submit_agent_task (idempotent retry)", retry);
            report("get_agent_task", get);
        }
    }

    private static void awaitEnd(McpTestClient mcp, String id) throws Exception {
        Instant deadline = Instant.now().plusSeconds(120);
        while (Instant.now().isBefore(deadline)) {
            JsonNode task = mcp.call("get_agent_task", Map.of("task_id", id)).ok();
            if (task.get("completed_at") != null && !task.get("completed_at").isNull()) {
                return;
            }
            LockSupport.parkNanos(10_000_000);
        }
        throw new AssertionError("task did not end: " + id);
    }

    private static void report(String name, List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        double median = sorted.get(sorted.size() / 2) / 1e6;
        double p99 = sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1)) / 1e6;
        System.out.printf("AGENT-BENCH %-38s n=%d median=%.2f ms p99=%.2f ms%n", name, sorted.size(), median, p99);
    }
}
