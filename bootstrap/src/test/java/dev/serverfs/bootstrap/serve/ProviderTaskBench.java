package dev.serverfs.bootstrap.serve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The measurement loop of the provider task benchmarks ({@link ClaudeTaskBenchmark}, {@link CodexTaskBenchmark}):
 * one-message tasks through a real {@code serve} started with {@code env}, one after the other. Per task: submit →
 * first provider event ({@code turn.started}), submit → {@code succeeded} (client-side, polling {@code
 * read_agent_task_events} / {@code get_agent_task} every 5 ms), and the child's peak RSS ({@code VmHWM}, following the
 * pid the guard records). Prints medians after 2 warm-up tasks.
 */
final class ProviderTaskBench {
    private ProviderTaskBench() {}

    static void measure(String runtime, Map<String, String> env, Path locks, int tasks) throws Exception {
        try (ServeProcess serve = ServeProcess.start(env)) {
            McpTestClient mcp = new McpTestClient(serve.awaitUrl(Duration.ofSeconds(120)));
            AgentProbe probe = new AgentProbe(mcp, locks);
            FlockWriterLeases leases = new FlockWriterLeases(locks);
            List<Long> firstEvent = new ArrayList<>();
            List<Long> succeeded = new ArrayList<>();
            List<Long> rss = new ArrayList<>();
            for (int i = -2; i < tasks; i++) {
                AtomicLong peakKb = new AtomicLong();
                Thread sampler = Thread.ofPlatform().daemon().start(() -> samplePeak(leases, peakKb));
                long t0 = System.nanoTime();
                String id = AgentServeIT.created(
                        mcp.call("submit_agent_task", AgentServeIT.submit("proj", runtime, "Say hello " + i)));
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
                    "%s bench: tasks=%d submit->turn.started median=%d ms, submit->succeeded median=%d ms,"
                            + " child peak RSS median=%d MiB (samples %d)%n",
                    runtime,
                    tasks,
                    median(firstEvent) / 1_000_000,
                    median(succeeded) / 1_000_000,
                    median(rss) / 1024,
                    rss.size());
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
