package dev.serverfs.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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

    @Test
    void an_unsafe_agent_directory_is_the_same_clean_refusal_for_serve_and_check_config_and_creates_nothing(
            @TempDir Path cwd) throws Exception {
        // Issue 10 §10: a non-private state directory printed a raw exception, exited 1, logged no startup_failed
        // and left the lock files behind, while check-config said OK.
        Path workdir = Files.createDirectory(cwd.resolve("wd"));
        Path state = Files.createDirectory(cwd.resolve("state"));
        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path locks = cwd.resolve("locks");
        Path notADirectory = Files.writeString(cwd.resolve("plain-file"), "x");
        Map<String, String> env = new HashMap<>(Map.of(
                "WORKDIR_01_ALIAS", "proj",
                "WORKDIR_01_PATH", workdir.toString(),
                "WORKDIR_01_AGENT_MODE", "review",
                "WORKDIR_01_AGENT_RUNTIMES", "fake",
                "SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true",
                "SERVERFS_AGENT_BRIDGE_ENABLED", "true",
                "SERVERFS_AGENT_EMBEDDED", "true",
                "SERVERFS_AGENT_BRIDGE_STATE_DIR", state.toString(),
                "SERVERFS_AGENT_LOCK_DIR", locks.toString()));
        String stateReason = "SERVERFS_AGENT_BRIDGE_STATE_DIR: the Agent state directory must be private (mode 0700)";
        Map<String, String> lockFile = new HashMap<>(env);
        lockFile.put("SERVERFS_AGENT_LOCK_DIR", notADirectory.toString());
        String lockReason =
                "SERVERFS_AGENT_LOCK_DIR: the lock directory must be a real directory, not a symlink or file";
        Map<String, String> noParent = new HashMap<>(env);
        noParent.put("SERVERFS_AGENT_LOCK_DIR", cwd.resolve("missing/locks").toString());

        for (Map.Entry<Map<String, String>, String> c : List.of(
                Map.entry(env, stateReason),
                Map.entry(lockFile, lockReason),
                Map.entry(
                        noParent,
                        "SERVERFS_AGENT_LOCK_DIR: the lock directory cannot be created: its parent is not a directory"))) {
            for (String command : List.of("serve", "check-config")) {
                Result r = run(cwd, c.getKey(), command);
                assertEquals(2, r.exitCode(), command + ": " + r.err());
                assertTrue(
                        r.err().contains("\"event\":\"startup_failed\",\"reason\":\"" + c.getValue() + "\""), r.err());
                assertTrue(r.err().endsWith("ServerFS: configuration error: " + c.getValue() + "\n"), r.err());
                assertFalse(r.err().contains("Exception"), r.err());
            }
        }
        assertFalse(Files.exists(locks), "no lock directory or lock files were created");
        try (Stream<Path> left = Files.list(state)) {
            assertEquals(List.of(), left.toList(), "nothing was created in the state directory");
        }
    }
}
