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
import java.util.stream.Stream;

/**
 * The measurement loop of the provider task benchmarks ({@link ClaudeTaskBenchmark}, {@link CodexTaskBenchmark}):
 * one-message tasks through a real {@code serve} started with {@code env}, one after the other. Per task: submit →
 * first provider event ({@code turn.started}), submit → {@code succeeded} (client-side, polling {@code
 * read_agent_task_events} / {@code get_agent_task} every 5 ms), and the child's peak RSS ({@code VmHWM}, following the
 * pid the guard records). Prints medians after 2 warm-up tasks.
 */
final class ProviderTaskBench {
    private ProviderTaskBench() {}

    /**
     * The benchmark's settings: quiet logs, and the children without their provider view when {@code
     * -DproviderBench.unconfined=true} (issue 25: the view's cost side by side).
     */
    static Map<String, String> settings() {
        return Boolean.getBoolean("providerBench.unconfined")
                ? Map.of("SERVERFS_LOG_LEVEL", "WARN", "SERVERFS_AGENT_ALLOW_UNCONFINED", "true")
                : Map.of("SERVERFS_LOG_LEVEL", "WARN");
    }

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
                long[] times = one(mcp, probe, runtime, "Say hello " + i);
                if (i >= 0) {
                    firstEvent.add(times[0]);
                    succeeded.add(times[1]);
                }
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

    /**
     * One task of {@code runtime} through {@code mcp}: nanoseconds from submit to the first provider event ({@code
     * turn.started}) and to {@code succeeded}; returns once the workdir's writer lease is free again.
     */
    static long[] one(McpTestClient mcp, AgentProbe probe, String runtime, String prompt) throws Exception {
        long t0 = System.nanoTime();
        String id = AgentServeIT.created(mcp.call("submit_agent_task", AgentServeIT.submit("proj", runtime, prompt)));
        long first = 0;
        while (true) {
            if (first == 0 && probe.eventTypes(id).contains("turn.started")) {
                first = System.nanoTime();
            }
            JsonNode task = probe.task(id);
            String status = task.get("status").asText();
            if (status.equals("succeeded")) {
                long done = System.nanoTime();
                probe.awaitLeaseReleased(1);
                return new long[] {(first == 0 ? done : first) - t0, done - t0};
            }
            if (!status.equals("queued") && !status.equals("starting") && !status.equals("running")) {
                throw new AssertionError("task ended " + task);
            }
            LockSupport.parkNanos(5_000_000);
        }
    }

    /**
     * Follows the pid the guard records, and the processes beneath it (the guard records the provider view's
     * bubblewrap, the provider runs under it), and keeps the highest VmHWM of one of them until interrupted.
     */
    private static void samplePeak(FlockWriterLeases leases, AtomicLong peakKb) {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                leases.readGuard(1)
                        .flatMap(g -> g.provider())
                        .flatMap(p -> ProcessHandle.of(p.pid()))
                        .ifPresent(child -> Stream.concat(Stream.of(child), child.descendants())
                                .forEach(p -> peakKb.accumulateAndGet(peakKb(p.pid()), Math::max)));
            } catch (RuntimeException e) {
                // guard mid-replace: look again
            }
            LockSupport.parkNanos(10_000_000);
        }
    }

    /** The process' VmHWM in KiB; 0 once it is gone. */
    private static long peakKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException gone) {
            // the process exited between the guard read and the status read
        }
        return 0;
    }

    static long median(List<Long> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
