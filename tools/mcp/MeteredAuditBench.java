import dev.serverfs.adapters.metrics.MeteredAuditLog;
import dev.serverfs.adapters.metrics.PrometheusMetrics;
import dev.serverfs.application.port.out.AuditLog;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What metrics cost outside a scrape (issue 27), without a server. Default: CPU nanoseconds and bytes allocated per
 * {@code toolCall} of a successful {@code stat_file} event, for a no-op audit log and for {@link MeteredAuditLog} in
 * front of it, on 1 and 2 threads (2: both cores updating the same meters). With {@code gc}: the CPU the JVM's
 * notification threads spend per young collection with the registry's binders bound (their {@code JvmGcMetrics}
 * listens to every collection) against none bound. Three rounds each; the first warms the JIT. Not a test: by hand,
 *
 * <pre>java -XX:+UseSerialGC -Xmx1g -cp bootstrap/target/serverfs.jar tools/mcp/MeteredAuditBench.java [CALLS | gc]</pre>
 */
public final class MeteredAuditBench {

    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("gc")) {
            perCollection();
            return;
        }
        long calls = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        AuditLog.ToolCall[] events = new AuditLog.ToolCall[64];
        for (int i = 0; i < events.length; i++) {
            events[i] = AuditLog.ToolCall.succeeded(
                    "stat_file",
                    Duration.ofNanos(40_000 + i * 1_000L),
                    Optional.of("docs"),
                    Optional.of("README.md"),
                    Map.of("type", "file"));
        }
        AuditLog noop = e -> sink = e;
        try (PrometheusMetrics metrics = new PrometheusMetrics()) {
            AuditLog metered = new MeteredAuditLog(noop, metrics.registry());
            for (int threads = 1; threads <= 2; threads++) {
                for (int round = 1; round <= 3; round++) {
                    run("no-op audit log", threads, calls, noop, events);
                    run("MeteredAuditLog", threads, calls, metered, events);
                }
            }
        }
    }

    private static void perCollection() throws InterruptedException {
        for (boolean bound : new boolean[] {false, true}) {
            PrometheusMetrics metrics = bound ? new PrometheusMetrics() : null;
            for (int round = 1; round <= 3; round++) {
                long gc0 = collections();
                long cpu0 = notificationCpu();
                for (long i = 0; i < 200_000_000L; i++) {
                    sink = new byte[64];
                }
                Thread.sleep(200); // the notifications of the last collections are handled
                long gcs = collections() - gc0;
                System.out.printf(
                        "binders %-5s %d collections, notification threads %7.1f us CPU per collection%n",
                        bound ? "bound" : "none", gcs, (notificationCpu() - cpu0) / 1e3 / Math.max(1, gcs));
            }
            if (metrics != null) {
                metrics.close();
            }
        }
    }

    private static long collections() {
        long n = 0;
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += gc.getCollectionCount();
        }
        return n;
    }

    /** CPU of the threads that build and deliver GC notifications. */
    private static long notificationCpu() {
        var mx = ManagementFactory.getThreadMXBean();
        long cpu = 0;
        for (var t : mx.dumpAllThreads(false, false)) {
            if (t.getThreadName().equals("Notification Thread") || t.getThreadName().equals("Service Thread")) {
                cpu += mx.getThreadCpuTime(t.getThreadId());
            }
        }
        return cpu;
    }

    private static void run(String name, int threads, long calls, AuditLog audit, AuditLog.ToolCall[] events)
            throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        CyclicBarrier start = new CyclicBarrier(threads);
        AtomicLong bytes = new AtomicLong();
        AtomicLong cpu = new AtomicLong();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                long b0 = mx.getCurrentThreadAllocatedBytes();
                long c0 = mx.getCurrentThreadCpuTime();
                for (long i = 0; i < calls; i++) {
                    audit.toolCall(events[(int) (i & 63)]);
                }
                cpu.addAndGet(mx.getCurrentThreadCpuTime() - c0);
                bytes.addAndGet(mx.getCurrentThreadAllocatedBytes() - b0);
            });
        }
        for (Thread w : workers) {
            w.join();
        }
        double total = (double) calls * threads;
        System.out.printf(
                "%-16s threads=%d  %6.1f ns CPU/call  %6.2f bytes/call%n",
                name, threads, cpu.get() / total, bytes.get() / total);
    }
}
