package dev.serverfs.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serverfs aot-train} for real, on the runnable jar with the launcher's JVM flags: a short training (3 rounds
 * and the Agent script) writes one complete cache and nothing else, which the JVM then accepts with
 * {@code -XX:AOTMode=on} (it refuses to start on a cache it cannot use); a training whose cache cannot be written
 * exits 1 and leaves no file. Every process it starts ends before it returns.
 */
class AotTrainIT {
    private static final Path JAR = Path.of(System.getProperty("user.dir"))
            .resolve("target/serverfs.jar")
            .toAbsolutePath();
    private static final List<String> FLAGS = List.of(
            "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow",
            "-XX:+UseSerialGC",
            "-Xmx1g",
            "-XX:MaxDirectMemorySize=256m");

    @TempDir
    Path tmp;

    @Test
    void a_training_writes_one_complete_cache_that_the_jvm_accepts() throws Exception {
        Path cache = tmp.resolve("serverfs.aot");
        assertEquals(
                0, run(List.of("-jar", JAR.toString(), "aot-train", "--output", cache.toString(), "--rounds", "3")));
        assertTrue(Files.size(cache) > 0, "a cache");
        try (Stream<Path> files = Files.list(tmp)) {
            assertEquals(List.of(cache), files.toList(), "no partial cache or configuration left beside it");
        }
        List<String> use = new ArrayList<>(List.of("-XX:AOTCache=" + cache, "-XX:AOTMode=on", "-Xlog:disable"));
        use.addAll(List.of("-jar", JAR.toString(), "version"));
        assertEquals(0, run(use), "the JVM accepts the trained cache with the same flags");
    }

    @Test
    void a_training_that_cannot_write_its_cache_fails_and_leaves_nothing() throws Exception {
        Path cache = tmp.resolve("missing/serverfs.aot");
        assertEquals(
                1, run(List.of("-jar", JAR.toString(), "aot-train", "--output", cache.toString(), "--rounds", "1")));
        try (Stream<Path> files = Files.list(tmp)) {
            assertEquals(List.of(), files.toList());
        }
    }

    private static int run(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(FLAGS);
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().keySet().removeIf(k -> k.startsWith("SERVERFS_") || k.startsWith("WORKDIR_"));
        Process process = builder.start();
        try {
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                throw new AssertionError("no exit within 10 minutes");
            }
            return process.exitValue();
        } finally {
            process.destroyForcibly();
            process.waitFor();
        }
    }
}
