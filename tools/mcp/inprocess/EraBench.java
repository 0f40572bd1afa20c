package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.adapters.fs.LinuxWorkdirFileSystem;
import dev.serverfs.adapters.mcp.tools.FilesystemReadTools;
import dev.serverfs.application.service.ListDirectoryService;
import dev.serverfs.application.service.ReadTextFileService;
import dev.serverfs.application.service.StatFileService;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import io.undertow.util.HeaderMap;
import io.undertow.util.HttpString;
import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Issue 23's era comparison without HTTP: one {@code tools/call} (stat_file of a 6-byte file, read_text_file of a
 * 64 KiB one) as a 2025-11-25 session request and as a 2026-07-28 stateless request, from the request's body bytes and
 * headers (as wrk-call.lua sends them) to the response's wire bytes, through what McpHttpHandler runs for each era
 * after the headers common to both (Accept, Content-Type): the parse into an {@link Envelope}, the era's choice
 * ({@link StatelessGate#stateless}), then for a session the session look-up, version header check and {@link
 * McpDispatcher#request}; for a stateless request {@link StatelessGate#check}, the {@link RequestMeta#CURRENT} binding
 * and {@link McpDispatcher#stateless}; then {@link Json#writeWire}. Audit events go to a no-op log (bench-eras.sh's
 * serve runs at WARNING, where the audit logger is off). Prints per era the median thread CPU time and the bytes
 * allocated per call on one platform thread: figures that do not move with the machine's load.
 *
 *   tools/mcp/inprocess/era-run.sh [ITERS]    (compiles this against bootstrap/target/serverfs.jar)
 */
public class EraBench {
    static final String META = ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"bench-eras\",\"version\":\"1\"}}";

    public static void main(String[] a) throws Exception {
        int iters = a.length > 0 ? Integer.parseInt(a[0]) : 20_000;
        Path root = Files.createTempDirectory("era-bench");
        Files.writeString(root.resolve("small.txt"), "hello\n");
        StringBuilder text = new StringBuilder();
        while (text.length() < 65_536) text.append("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ+/\n");
        Files.writeString(root.resolve("64k.txt"), text.substring(0, 65_536));
        WorkdirPolicy policy = new WorkdirPolicy(false, false, List.of(), 2 << 20, 20000, 1 << 20, false, 8_388_608L,
                AgentMode.DISABLED, new TreeSet<>());
        Workdirs wds = new Workdirs(List.of(new Workdir(1, new WorkdirAlias("bench"), Optional.empty(),
                Access.READ_ONLY, policy, root)));
        ServerLimits limits = new ServerLimits(100, 1000, 50, 2000, 200_000, Duration.ofSeconds(15), 52_428_800L, 50);
        LinuxWorkdirFileSystem fs = new LinuxWorkdirFileSystem();
        List<McpTool> tools = new FilesystemReadTools(
                        List::of,
                        new ListDirectoryService(wds, limits, fs),
                        q -> { throw new UnsupportedOperationException(); },
                        q -> { throw new UnsupportedOperationException(); },
                        new ReadTextFileService(wds, fs),
                        new StatFileService(wds, fs))
                .definitions();
        ToolRegistry registry = new ToolRegistry(tools, EnumSet.of(ToolSurface.FILESYSTEM));
        McpSessions sessions = new McpSessions(Clock.systemUTC(), Duration.ofMinutes(10), 10);
        McpDispatcher d = new McpDispatcher(registry, new ToolInvoker(registry, e -> {}), sessions, "x",
                EnumSet.of(ToolSurface.FILESYSTEM));
        String sid = sessions.create("2025-11-25").orElseThrow().id();

        String stat = "{\"workdir\":\"bench\",\"path\":\"small.txt\"}";
        String read = "{\"workdir\":\"bench\",\"path\":\"64k.txt\",\"max_lines\":2000}";
        String readSmall = "{\"workdir\":\"bench\",\"path\":\"small.txt\"}";
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int pass = 0; pass < 2; pass++) { // the first pass warms both eras up
            for (String[] w : new String[][] {{"stat_file", stat}, {"read_text_file", read}, {"read_text_file", readSmall}}) {
                byte[][] bodies = new byte[2][];
                HeaderMap[] headers = new HeaderMap[2];
                for (int era = 0; era < 2; era++) { // 0 session, 1 stateless
                    bodies[era] = ("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\""
                                    + w[0] + "\",\"arguments\":" + w[1] + (era == 1 ? META : "") + "}}")
                            .getBytes(StandardCharsets.UTF_8);
                    headers[era] = new HeaderMap();
                    if (era == 1) {
                        headers[era].put(McpHttpHandler.VERSION_HEADER, "2026-07-28");
                        headers[era].put(StatelessGate.METHOD_HEADER, "tools/call");
                        headers[era].put(StatelessGate.NAME_HEADER, w[0]);
                    } else {
                        headers[era].put(McpHttpHandler.VERSION_HEADER, "2025-11-25");
                        headers[era].put(McpHttpHandler.SESSION_HEADER, sid);
                    }
                }
                // The eras alternate call by call (the order swapping every call), so both meet the same load.
                long[][] cpu = new long[2][iters];
                long[][] alloc = new long[2][iters];
                long[] size = new long[2];
                for (int i = 0; i < iters; i++) {
                    for (int k = 0; k < 2; k++) {
                        int era = (i + k) % 2;
                        long a0 = mx.getCurrentThreadAllocatedBytes();
                        long c0 = mx.getCurrentThreadCpuTime();
                        size[era] = respond(d, sessions, headers[era], bodies[era]);
                        cpu[era][i] = mx.getCurrentThreadCpuTime() - c0;
                        alloc[era][i] = mx.getCurrentThreadAllocatedBytes() - a0;
                    }
                }
                if (pass == 0) {
                    continue;
                }
                if (Boolean.getBoolean("steps")) {
                    steps(d, sessions, headers, bodies, mx);
                }
                for (int era = 0; era < 2; era++) {
                    long total = Arrays.stream(cpu[era]).sum();
                    Arrays.sort(cpu[era]);
                    Arrays.sort(alloc[era]);
                    System.out.printf(
                            "%-15s %-9s request %4d B  response %6d B  CPU median %7.2f µs  mean %7.2f µs  alloc median %7d B%n",
                            w[0], era == 1 ? "stateless" : "session", bodies[era].length, size[era],
                            cpu[era][iters / 2] / 1e3, total / 1e3 / iters, alloc[era][iters / 2]);
                }
            }
        }
    }

    /**
     * -Dsteps=true: the bytes each step of {@link #respond} allocates and its wall time, medians of -DstepRuns (default
     * 20,001) runs per era, the eras alternating run by run.
     */
    static void steps(McpDispatcher d, McpSessions sessions, HeaderMap[] headers, byte[][] bodies,
                      com.sun.management.ThreadMXBean mx) throws Exception {
        int runs = Integer.getInteger("stepRuns", 20_001);
        long[][][] bytes = new long[2][5][runs];
        long[][][] nanos = new long[2][5][runs];
        long[] at = new long[6];
        long[] ns = new long[6];
        for (int i = 0; i < runs; i++) {
            for (int e = 0; e < 2; e++) {
                int era = (i + e) % 2;
                int k = 0;
                ns[k] = System.nanoTime(); at[k++] = mx.getCurrentThreadAllocatedBytes();
                JsonNode message = Json.WIRE.readTree(new ByteArrayInputStream(bodies[era]));
                ns[k] = System.nanoTime(); at[k++] = mx.getCurrentThreadAllocatedBytes();
                Envelope envelope = Envelope.of(message);
                boolean stateless = StatelessGate.stateless(headers[era], envelope);
                ns[k] = System.nanoTime(); at[k++] = mx.getCurrentThreadAllocatedBytes();
                Object answer;
                if (stateless) {
                    var accepted = (StatelessGate.Checked.Accepted)
                            StatelessGate.check(headers[era], envelope, d::paramHeaders);
                    ns[k] = System.nanoTime(); at[k++] = mx.getCurrentThreadAllocatedBytes();
                    answer = ScopedValue.where(RequestMeta.CURRENT, accepted.meta())
                            .call(() -> d.stateless(accepted.meta(), envelope.id(), envelope.method(), envelope.params()))
                            .body();
                } else {
                    McpSession session =
                            sessions.touch(headers[era].getFirst(McpHttpHandler.SESSION_HEADER)).orElseThrow();
                    ProtocolVersions.supported(headers[era].getFirst(McpHttpHandler.VERSION_HEADER));
                    session.markUsed();
                    ns[k] = System.nanoTime(); at[k++] = mx.getCurrentThreadAllocatedBytes();
                    answer = d.request(session, envelope.id(), envelope.method(), envelope.params());
                }
                ns[k] = System.nanoTime(); at[k++] = mx.getCurrentThreadAllocatedBytes();
                Json.writeWire((JsonNode) answer);
                ns[k] = System.nanoTime(); at[k++] = mx.getCurrentThreadAllocatedBytes();
                for (int j = 0; j < 5; j++) {
                    bytes[era][j][i] = at[j + 1] - at[j];
                    nanos[era][j][i] = ns[j + 1] - ns[j];
                }
            }
        }
        for (int era = 0; era < 2; era++) {
            for (long[] st : bytes[era]) Arrays.sort(st);
            for (long[] st : nanos[era]) Arrays.sort(st);
            int m = runs / 2;
            System.out.printf("    %-9s steps, B: parse %d, envelope+era %d, gate/session %d, dispatch %d, write %d;"
                            + " ns: %d, %d, %d, %d, %d%n", era == 1 ? "stateless" : "session",
                    bytes[era][0][m], bytes[era][1][m], bytes[era][2][m], bytes[era][3][m], bytes[era][4][m],
                    nanos[era][0][m], nanos[era][1][m], nanos[era][2][m], nanos[era][3][m], nanos[era][4][m]);
        }
    }

    /** The response's length, built as McpHttpHandler builds it for the request's era. */
    static long respond(McpDispatcher d, McpSessions sessions, HeaderMap headers, byte[] body) throws Exception {
        JsonNode message = Json.WIRE.readTree(new ByteArrayInputStream(body));
        Envelope envelope = Envelope.of(message);
        if (StatelessGate.stateless(headers, envelope)) {
            StatelessGate.Checked checked = StatelessGate.check(headers, envelope, d::paramHeaders);
            if (!(checked instanceof StatelessGate.Checked.Accepted accepted)) throw new IllegalStateException("refused");
            McpDispatcher.Answer answer = ScopedValue.where(RequestMeta.CURRENT, accepted.meta())
                    .call(() -> d.stateless(accepted.meta(), envelope.id(), envelope.method(), envelope.params()));
            return Json.writeWire(answer.body()).length();
        }
        McpSession session = sessions.touch(headers.getFirst(McpHttpHandler.SESSION_HEADER)).orElseThrow();
        String version = headers.getFirst(McpHttpHandler.VERSION_HEADER);
        if (version != null && !ProtocolVersions.supported(version)) throw new IllegalStateException("version");
        session.markUsed();
        return Json.writeWire(d.request(session, envelope.id(), envelope.method(), envelope.params())).length();
    }
}
