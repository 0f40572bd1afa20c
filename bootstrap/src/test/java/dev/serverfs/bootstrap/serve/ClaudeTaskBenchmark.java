package dev.serverfs.bootstrap.serve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.bootstrap.serve.MockMessagesApi.Reply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a test (never in the normal run; BENCHMARKS.md "Claude runtime"): a one-message {@code claude} task against
 * {@link MockMessagesApi}, through a real {@code serve} with the embedded Agent service and the real CLI. Per task:
 * submit → first provider event ({@code turn.started}, i.e. Claude's {@code system/init}), submit → {@code succeeded}
 * (client-side, polling {@code read_agent_task_events} / {@code get_agent_task} every 5 ms), and the child's peak
 * RSS ({@code VmHWM}). Prints medians after 2 warm-up tasks.
 *
 * <pre>mvn -B -q -pl bootstrap -am verify -Dtest=ClaudeTaskBenchmark -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
class ClaudeTaskBenchmark {
    private static final int TASKS = Integer.getInteger("claudeBench.tasks", 12);

    @Test
    void measure(@TempDir Path dir) throws Exception {
        Path bin = ClaudeCode.binary();
        Path proj = Files.createDirectories(dir.resolve("proj"));
        Path locks = dir.resolve("locks");
        try (MockMessagesApi mock = MockMessagesApi.start(r -> new Reply.Text("Hello from the mock"))) {
            Map<String, String> env = new HashMap<>();
            env.put("HOME", Files.createDirectories(dir.resolve("home")).toString());
            env.put("ANTHROPIC_BASE_URL", mock.baseUrl());
            env.put("ANTHROPIC_API_KEY", "sk-ant-mock-key");
            env.put("SERVERFS_HOST", "127.0.0.1");
            env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
            env.put("SERVERFS_LOG_LEVEL", "WARN");
            env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
            env.put("SERVERFS_AGENT_EMBEDDED", "true");
            env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", dir.resolve("state").toString());
            env.put("SERVERFS_AGENT_LOCK_DIR", locks.toString());
            env.put("SERVERFS_AGENT_CLAUDE_BIN", bin.toString());
            env.put("WORKDIR_01_ALIAS", "proj");
            env.put("WORKDIR_01_PATH", proj.toString());
            env.put("WORKDIR_01_READ_ONLY", "false");
            env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
            env.put("WORKDIR_01_AGENT_RUNTIMES", "claude");
            try (ServeProcess serve = ServeProcess.start(env)) {
                McpTestClient mcp = new McpTestClient(serve.awaitUrl(Duration.ofSeconds(120)));
                AgentProbe probe = new AgentProbe(mcp, locks);
                FlockWriterLeases leases = new FlockWriterLeases(locks);
                List<Long> firstEvent = new ArrayList<>();
                List<Long> succeeded = new ArrayList<>();
                List<Long> rss = new ArrayList<>();
                for (int i = -2; i < TASKS; i++) {
                    AtomicLong peakKb = new AtomicLong();
                    Thread sampler = Thread.ofPlatform().daemon().start(() -> samplePeak(leases, peakKb));
                    long t0 = System.nanoTime();
                    String id = AgentServeIT.created(
                            mcp.call("submit_agent_task", AgentServeIT.submit("proj", "claude", "Say hello " + i)));
                    long first = 0;
                    while (true) {
                        if (first == 0 && probe.eventTypes(id).contains("turn.started")) {
                            first = System.nanoTime();
                        }
                        JsonNode task = probe.task(id);
                        String status = task.get("status").asText();
                        if (status.equals("succeeded")) {
                            long done = System.nanoTime();
                            if (first == 0) {
                                first = done;
                            }
                            if (i >= 0) {
                                firstEvent.add(first - t0);
                                succeeded.add(done - t0);
                            }
                            break;
                        }
                        if (!status.equals("queued") && !status.equals("starting") && !status.equals("running")) {
                            throw new AssertionError("task ended " + task);
                        }
                        LockSupport.parkNanos(5_000_000);
                    }
                    probe.awaitLeaseReleased(1);
                    sampler.interrupt();
                    sampler.join();
                    if (i >= 0 && peakKb.get() > 0) {
                        rss.add(peakKb.get());
                    }
                }
                System.out.printf(
                        "claude bench: tasks=%d submit->turn.started median=%d ms, submit->succeeded median=%d ms,"
                                + " child peak RSS median=%d MiB (samples %d)%n",
                        TASKS,
                        median(firstEvent) / 1_000_000,
                        median(succeeded) / 1_000_000,
                        median(rss) / 1024,
                        rss.size());
            }
        }
    }

    /** Follows the pid the guard records and keeps the highest VmHWM seen until interrupted. */
    private static void samplePeak(FlockWriterLeases leases, AtomicLong peakKb) {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                leases.readGuard(1).flatMap(g -> g.provider()).ifPresent(p -> {
                    try {
                        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "status"))) {
                            if (line.startsWith("VmHWM:")) {
                                long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                                peakKb.accumulateAndGet(kb, Math::max);
                            }
                        }
                    } catch (IOException | RuntimeException gone) {
                        // the child exited between the guard read and the status read
                    }
                });
            } catch (RuntimeException e) {
                // guard mid-replace: look again
            }
            LockSupport.parkNanos(10_000_000);
        }
    }

    private static long median(List<Long> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
