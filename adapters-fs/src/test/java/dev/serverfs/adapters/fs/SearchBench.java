package dev.serverfs.adapters.fs;

import dev.serverfs.application.port.in.SearchTextUseCase.SearchTextQuery;
import dev.serverfs.application.port.in.SearchTextUseCase.TextMatches;
import dev.serverfs.application.service.SearchTextService;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * In-process {@code search_text} loop for deciding search changes (not a test): {@code SearchBench ROOT QUERY
 * CASE_SENSITIVE LIMIT ITERATIONS} prints the median wall and process CPU time per search after 5 warm-ups.
 * Process CPU time is far less sensitive than wall time to other work on a shared machine.
 */
public final class SearchBench {

    private SearchBench() {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        String query = args[1];
        boolean caseSensitive = Boolean.parseBoolean(args[2]);
        int limit = Integer.parseInt(args[3]);
        int iterations = Integer.parseInt(args[4]);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (LinuxWorkdirFileSystem fs = new LinuxWorkdirFileSystem()) {
            WorkdirPolicy policy = new WorkdirPolicy(
                    true, true, List.of(), 524288, 500, 1 << 20, false, 8 << 20, AgentMode.DISABLED, new TreeSet<>());
            Workdirs workdirs = new Workdirs(
                    List.of(new Workdir(1, new WorkdirAlias("wd"), Optional.empty(), Access.READ_ONLY, policy, root)));
            ServerLimits limits =
                    new ServerLimits(100, 500, limit, limit, 200_000, Duration.ofSeconds(60), 52_428_800L, 50);
            SearchTextService search = new SearchTextService(workdirs, limits, fs);
            SearchTextQuery q = new SearchTextQuery("wd", query, "", null, caseSensitive, limit);
            long[] wall = new long[iterations];
            long[] cpu = new long[iterations];
            int hits = 0;
            for (int i = -5; i < iterations; i++) {
                long c0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                TextMatches m = search.searchText(q);
                long t1 = System.nanoTime();
                long c1 = os.getProcessCpuTime();
                hits = m.matches().size();
                if (i >= 0) {
                    wall[i] = t1 - t0;
                    cpu[i] = c1 - c0;
                }
            }
            Arrays.sort(wall);
            Arrays.sort(cpu);
            System.out.printf(
                    "hits %d  wall median %.1f ms (min %.1f)  cpu median %.1f ms (min %.1f)%n",
                    hits, wall[iterations / 2] / 1e6, wall[0] / 1e6, cpu[iterations / 2] / 1e6, cpu[0] / 1e6);
        }
    }
}
