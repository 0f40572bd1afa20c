import dev.serverfs.provider.SessionTranscripts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the transcript check costs each Codex start (CodexRollout.forgetSessionState reads every rollout of the
 * workdir's CODEX_HOME): FILES clean rollouts of KB KiB (1 KiB lines), PASSES passes, each pass's milliseconds.
 *
 * <pre>java -XX:+UseSerialGC -cp CLASSPATH tools/codex/TranscriptCheckBench.java [FILES [KB [PASSES]]]</pre>
 */
public class TranscriptCheckBench {
    public static void main(String[] args) throws Exception {
        int files = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int kib = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int passes = args.length > 2 ? Integer.parseInt(args[2]) : 15;
        Path home = Files.createTempDirectory("transcript-bench");
        Path day = Files.createDirectories(home.resolve("sessions/2026/12/04"));
        String line = "{\"type\":\"response_item\",\"payload\":{\"text\":\"" + "lorem ipsum ".repeat(84) + "\"}}\n";
        for (int i = 0; i < files; i++) {
            Files.writeString(day.resolve("rollout-" + i + ".jsonl"), line.repeat(kib));
        }
        List<Long> ms = new ArrayList<>();
        for (int p = 0; p < passes; p++) {
            long start = System.nanoTime();
            SessionTranscripts.rewrite(
                    home, "sessions", 3, n -> n.startsWith("rollout-"), n -> true, l -> Optional.of(l));
            ms.add((System.nanoTime() - start) / 1_000_000);
        }
        System.out.println(files + " rollouts of " + kib + " KiB, ms per pass: " + ms);
        try (var all = Files.walk(home)) {
            all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
