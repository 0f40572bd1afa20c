package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.serverfs.application.port.out.ProviderView;
import dev.serverfs.domain.workdir.WorkdirPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the provider view adds to a child's start (issue 25, BENCHMARKS.md "Provider view"): the median wall time from
 * start to exit of {@code /bin/true}, plain and inside the view with 0 and 100 concealed entries. Not part of the
 * suite; run with {@code ./test.sh -pl provider-support -am -Dtest=ProviderSandboxBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false} ({@code -Dbench.rounds=N}, 200 by default).
 */
class ProviderSandboxBenchmark {
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 200);

    @TempDir
    Path dir;

    @Test
    void start_cost_of_the_view() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        List<ProviderView.Concealed> hundred = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Files.writeString(work.resolve("k" + i + ".pem"), "x");
            hundred.add(new ProviderView.Concealed(new WorkdirPath(List.of("k" + i + ".pem")), false));
        }
        ProviderSandbox sandbox =
                ProviderSandbox.confined("bwrap", System.getenv("PATH"), List.of(), List.of(), dir.resolve("homes"));
        assertEquals(Optional.empty(), sandbox.unavailableReason());
        ProviderSandbox.Grants grants = ProviderSandbox.Grants.none(List.of(), Optional.empty());
        ProviderCommand plain = new ProviderCommand(
                List.of("/bin/true"), work, Map.of("HOME", dir.resolve("home").toString()), 1024);
        // wrapped afresh for each start (as each turn is: a wrapped command with concealed entries starts once),
        // outside the time measured
        Supplier<ProviderCommand> none =
                () -> sandbox.wrap(plain, new ProviderView(work, work, true, List.of()), grants);
        Supplier<ProviderCommand> many = () -> sandbox.wrap(plain, new ProviderView(work, work, true, hundred), grants);
        for (int warm = 0; warm < 20; warm++) {
            time(plain);
            time(none.get());
            time(many.get());
        }
        long[][] samples = new long[3][ROUNDS];
        for (int i = 0; i < ROUNDS; i++) { // interleaved, so a busy moment hits all three alike
            samples[0][i] = time(plain);
            samples[1][i] = time(none.get());
            samples[2][i] = time(many.get());
        }
        String[] names = {"plain /bin/true", "in the view", "in the view, 100 concealed entries"};
        for (int k = 0; k < 3; k++) {
            System.out.printf(
                    "provider-view %-40s median %.2f ms (%d rounds)%n", names[k], median(samples[k]) / 1e6, ROUNDS);
        }
    }

    private static long time(ProviderCommand command) throws Exception {
        long start = System.nanoTime();
        ProcessBuilder builder = new ProcessBuilder(command.argv())
                .directory(command.workingDirectory().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().clear();
        builder.environment().putAll(command.environment());
        assertEquals(0, builder.start().waitFor());
        return System.nanoTime() - start;
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
