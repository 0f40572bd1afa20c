package dev.serverfs.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serverfs check-config} as a real child JVM through {@code main}: the exit code reaches the OS, the shipped
 * logback configuration loads in a fresh process, and the example works from any working directory.
 */
class CheckConfigIT {

    private static final Path EXAMPLE =
            Path.of("..", "examples", "local.env").toAbsolutePath().normalize();

    private record Result(int exitCode, String out, String err) {}

    private static Result run(Path workingDirectory, Map<String, String> extraEnv, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ServerFsMain.class.getName());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile());
        builder.environment().keySet().removeIf(k -> k.startsWith("SERVERFS_") || k.startsWith("WORKDIR"));
        builder.environment().putAll(extraEnv);
        Path out = Files.createTempFile(workingDirectory, "out", ".txt");
        Path err = Files.createTempFile(workingDirectory, "err", ".txt");
        builder.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process process = builder.start();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                throw new IOException("check-config did not finish within 60 s");
            }
        } finally {
            process.destroyForcibly();
        }
        return new Result(
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void the_example_passes_from_an_unrelated_working_directory(@TempDir Path cwd) throws Exception {
        Result r = run(cwd, Map.of(), "check-config", "--env-file", EXAMPLE.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("  01 docs: read-only "), r.out());
        assertTrue(r.out().contains("  02 scratch: read-write "), r.out());
        assertEquals("", r.err());
    }

    @Test
    void a_configuration_error_exits_2_with_one_json_event_and_the_stderr_line(@TempDir Path cwd) throws Exception {
        Result r = run(cwd, Map.of("WORKDIR_01_READ_ONLY", "maybe"), "check-config", "--env-file", EXAMPLE.toString());
        assertEquals(2, r.exitCode());
        assertEquals("", r.out());
        String[] lines = r.err().split("\n");
        assertEquals(2, lines.length, r.err());
        assertTrue(
                lines[0].matches(
                        "\\{\"timestamp\":\"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\",\"level\":\"ERROR\","
                                + "\"event\":\"startup_failed\",\"reason\":\"WORKDIR_01_READ_ONLY must be true or false\"}"),
                lines[0]);
        assertEquals("ServerFS: configuration error: WORKDIR_01_READ_ONLY must be true or false", lines[1]);
    }
}
