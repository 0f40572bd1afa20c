package dev.serverfs.adapters.fs;

import dev.serverfs.application.port.out.WalkVisitor.WalkDecision;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * What finding a workdir's deny-listed entries adds to a submit (issue 25, BENCHMARKS.md "Provider view"): the median
 * of {@code deniedEntries} over a tree, without and with ServerFS' own paths to find by identity. Not part of the suite; run with {@code ./test.sh -pl adapters-fs -am
 * -Dtest=DeniedEntriesBenchmark -Dsurefire.failIfNoSpecifiedTests=false -Dbench.dir=/some/tree} (the repository
 * checkout by default; {@code -Dbench.rounds=N}, 30 by default).
 */
class DeniedEntriesBenchmark {
    @Test
    void walk_cost() throws Exception {
        Path tree = Path.of(System.getProperty("bench.dir", "..")).toRealPath();
        int rounds = Integer.getInteger("bench.rounds", 30);
        WorkdirPolicy policy = new WorkdirPolicy(
                false, false, List.of(), 65536, 500, 65536, false, 1 << 20, AgentMode.REVIEW, new TreeSet<>());
        Workdir workdir = new Workdir(1, new WorkdirAlias("bench"), Optional.empty(), Access.READ_ONLY, policy, tree);
        // ServerFS' own paths as a Bridge would give them (none inside the tree): every directory entered costs an
        // fstat, every entry a look-up of its d_ino.
        List<Path> own = List.of(Path.of("/tmp"), Path.of("/etc"), Path.of("/usr"), Path.of("/var"), Path.of("/"));
        try (LinuxWorkdirFileSystem fs = new LinuxWorkdirFileSystem();
                LinuxWorkdirFileSystem withOwn =
                        new LinuxWorkdirFileSystem(LinuxWorkdirFileSystem.Resolution.AUTO, own)) {
            int[] entries = new int[1];
            fs.walk(workdir, WorkdirPath.ROOT, (path, type) -> {
                entries[0]++;
                return WalkDecision.CONTINUE;
            });
            long[] samples = new long[rounds];
            long[] ownSamples = new long[rounds];
            int denied = 0;
            for (int i = 0; i < 5; i++) {
                fs.deniedEntries(workdir, 100_000);
                withOwn.deniedEntries(workdir, 100_000);
            }
            for (int i = 0; i < rounds; i++) {
                long start = System.nanoTime();
                denied = fs.deniedEntries(workdir, 100_000).size();
                samples[i] = System.nanoTime() - start;
                start = System.nanoTime();
                withOwn.deniedEntries(workdir, 100_000);
                ownSamples[i] = System.nanoTime() - start;
            }
            Arrays.sort(samples);
            Arrays.sort(ownSamples);
            System.out.printf(
                    "denied-entries walk of %d entries (%d denied): median %.2f ms, with %d own paths %.2f ms"
                            + " (%d rounds)%n",
                    entries[0], denied, samples[rounds / 2] / 1e6, own.size(), ownSamples[rounds / 2] / 1e6, rounds);
        }
    }
}
