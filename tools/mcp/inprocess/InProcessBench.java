package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.fs.LinuxWorkdirFileSystem;
import dev.serverfs.adapters.mcp.tools.*;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.application.service.*;
import dev.serverfs.domain.workdir.*;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.*;

/**
 * Issue 15's in-process row: {@code tools/call} through the real McpDispatcher, ToolInvoker, tool, service and
 * LinuxWorkdirFileSystem to the response bytes as McpHttpHandler sends them (no HTTP). Prints the median wall and
 * thread CPU time and the bytes allocated per call. See run.sh; compiled against a serverfs.jar (package-private
 * access: this class joins the adapter's package on the class path).
 */
public class InProcessBench {
    static final boolean VT = Boolean.getBoolean("vt");
    public static void main(String[] a) throws Exception {
        String root = a[0];
        String which = a[1];
        int iters = Integer.parseInt(a[2]);
        boolean realAudit = a.length > 3 && a[3].equals("audit");
        WorkdirPolicy policy = new WorkdirPolicy(false, false, List.of(), 2 << 20, 20000, 1 << 20, false, 8_388_608L,
                AgentMode.DISABLED, new TreeSet<>());
        Workdirs wds = new Workdirs(List.of(new Workdir(1, new WorkdirAlias("bench"), Optional.empty(),
                Access.READ_ONLY, policy, Path.of(root))));
        ServerLimits limits = new ServerLimits(100, 1000, 50, 2000, 200_000, java.time.Duration.ofSeconds(15),
                52_428_800L, 50);
        LinuxWorkdirFileSystem fs = new LinuxWorkdirFileSystem();
        List<McpTool> tools = new FilesystemReadTools(
                        List::of,
                        new ListDirectoryService(wds, limits, fs),
                        q -> { throw new UnsupportedOperationException("find_files is not benchmarked here"); },
                        q -> { throw new UnsupportedOperationException("search_text is not benchmarked here"); },
                        new ReadTextFileService(wds, fs),
                        new StatFileService(wds, fs))
                .definitions();
        ToolRegistry registry = new ToolRegistry(tools, EnumSet.of(ToolSurface.FILESYSTEM));
        AuditLog audit = realAudit ? new Slf4jAuditLog() : e -> {};
        McpSessions sessions = new McpSessions(java.time.Clock.systemUTC(), java.time.Duration.ofMinutes(10), 10);
        McpDispatcher d = new McpDispatcher(registry, new ToolInvoker(registry, audit), sessions, "x",
                EnumSet.of(ToolSurface.FILESYSTEM));
        McpSession session = sessions.create("2025-11-25").orElseThrow();
        String params = switch (which) {
            case "read1m" -> "{\"name\":\"read_text_file\",\"arguments\":{\"workdir\":\"bench\",\"path\":\"big/text-1MiB.txt\",\"max_lines\":16384}}";
            case "read64k" -> "{\"name\":\"read_text_file\",\"arguments\":{\"workdir\":\"bench\",\"path\":\"big/text-1MiB.txt\",\"max_lines\":1024}}";
            case "list" -> "{\"name\":\"list_directory\",\"arguments\":{\"workdir\":\"bench\",\"path\":\"dir1000\",\"limit\":1000}}";
            case "stat" -> "{\"name\":\"stat_file\",\"arguments\":{\"workdir\":\"bench\",\"path\":\"big/text-1MiB.txt\"}}";
            default -> throw new IllegalArgumentException(which);
        };
        JsonNode p = Json.WIRE.readTree(params);
        JsonNode id = Json.WIRE.readTree("7");
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] t = new long[iters];
        long[] al = new long[iters];
        long[] cpu = new long[iters];
        int[] sizes = new int[1];
        long total0 = 0;
        long proc0 = 0;
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int w = 0; w < 2; w++) {
            if (w == 1) {
                total0 = mx.getTotalThreadAllocatedBytes();
                proc0 = os.getProcessCpuTime();
            }
            for (int i = 0; i < iters; i++) {
                final int k = i;
                Runnable body = () -> {
                    long a0 = mx.getCurrentThreadAllocatedBytes();
                    long c0 = mx.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    sizes[0] = respond(d, session, id, p);
                    t[k] = System.nanoTime() - t0;
                    cpu[k] = mx.getCurrentThreadCpuTime() - c0;
                    al[k] = mx.getCurrentThreadAllocatedBytes() - a0;
                };
                if (VT) {
                    Thread.ofVirtual().start(body).join();
                } else {
                    body.run();
                }
            }
        }
        long totalPerCall = (mx.getTotalThreadAllocatedBytes() - total0) / iters;
        double procCpu = (os.getProcessCpuTime() - proc0) / 1e6 / iters;
        Arrays.sort(t);
        Arrays.sort(al);
        Arrays.sort(cpu);
        System.out.printf("%s response=%d bytes wall median=%.3f ms p10=%.3f cpu median=%.3f ms alloc/call median=%d B, all threads/call=%d B, process cpu/call=%.3f ms%n", which, sizes[0],
                t[iters / 2] / 1e6, t[iters / 10] / 1e6, cpu[iters / 2] / 1e6, al[iters / 2], totalPerCall, procCpu);
    }

    private static final java.lang.reflect.Method WRITE_WIRE = writeWire();

    private static java.lang.reflect.Method writeWire() {
        try {
            return Json.class.getDeclaredMethod("writeWire", JsonNode.class);
        } catch (NoSuchMethodException e) {
            return null; // a build before WireBytes: the response was one array
        }
    }

    /** The response body's size, built the way this build's McpHttpHandler builds it. */
    private static int respond(McpDispatcher d, McpSession s, JsonNode id, JsonNode params) {
        ObjectNode response = d.request(s, id, "tools/call", params);
        if (WRITE_WIRE == null) {
            return Json.writeBytes(response).length;
        }
        try {
            Object wire = WRITE_WIRE.invoke(null, response);
            return (int) (long) wire.getClass().getDeclaredMethod("length").invoke(wire);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
