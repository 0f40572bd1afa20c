package dev.serverfs.bootstrap.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.adapters.sqlite.SqliteTaskStores;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.bootstrap.ServerFsMain;
import dev.serverfs.bootstrap.cli.SubCommands;
import dev.serverfs.bootstrap.launch.ServerFsProcess;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.StoredManifest;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.workdir.WorkdirAlias;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TasksCommandTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @TempDir
    Path temp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @Test
    void lists_non_terminal_tasks_by_default_and_all_with_the_flag() throws Exception {
        Path stateDir = temp.resolve("state");
        try (SqliteTaskStores opened = SqliteTaskStores.open(stateDir)) {
            TaskStore store = opened.taskStore();
            store.insert(task(1, T0), 4);
            store.insert(task(2, T0.plusSeconds(60)), 4);
            store.update(id(2), t -> t.interrupted(ErrorCode.BRIDGE_RESTARTED, "restarted", T0.plusSeconds(120)));
        }
        Path envFile = envFile(Optional.of(stateDir));

        assertEquals(
                0, run(Clock.fixed(T0.plus(Duration.ofHours(2)), ZoneOffset.UTC), "--env-file", envFile.toString()));
        String active = printed();
        assertTrue(active.startsWith("TASK_ID"), active);
        assertTrue(active.contains(id(1).value() + "  codex    docs     workspace-write  queued  2h   -"), active);
        assertFalse(active.contains(id(2).value()), active);

        out.reset();
        assertEquals(
                0,
                run(
                        Clock.fixed(T0.plus(Duration.ofHours(2)), ZoneOffset.UTC),
                        "--all",
                        "--env-file",
                        envFile.toString()));
        String all = printed();
        assertTrue(
                all.contains(id(2).value() + "  codex    docs     workspace-write  interrupted  1h   BRIDGE_RESTARTED"),
                all);
    }

    @Test
    void a_missing_store_prints_no_tasks_exits_zero_and_creates_nothing() throws Exception {
        Path stateDir = temp.resolve("absent-state");
        assertEquals(
                0,
                run(
                        Clock.systemUTC(),
                        "--env-file",
                        envFile(Optional.of(stateDir)).toString()));
        assertEquals("No active tasks (use --all to include finished ones).\n", printed());
        assertFalse(Files.exists(stateDir), "the listing never creates the state directory");
    }

    @Test
    void no_configured_state_directory_prints_no_tasks_and_exits_zero() throws Exception {
        assertEquals(
                0,
                run(Clock.systemUTC(), "--env-file", envFile(Optional.empty()).toString()));
        assertTrue(printed().contains("no tasks"), printed());
    }

    @Test
    void an_unsafe_state_directory_is_a_configuration_error() throws Exception {
        Path stateDir = Files.createDirectory(temp.resolve("state"));
        Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals(
                ServerFsProcess.EXIT_CONFIGURATION_ERROR,
                run(
                        Clock.systemUTC(),
                        "--env-file",
                        envFile(Optional.of(stateDir)).toString()));
        assertEquals("", printed());
    }

    @Test
    void the_sub_command_is_registered_on_the_launcher() throws Exception {
        Path envFile = envFile(Optional.of(temp.resolve("absent-state")));
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = ServerFsMain.run("tasks", "--all", "--env-file", envFile.toString());
        } finally {
            System.setOut(original);
        }
        assertEquals(0, code);
        assertEquals("No tasks.\n", captured.toString(StandardCharsets.UTF_8));
    }

    private int run(Clock clock, String... args) {
        return SubCommands.execute(new TasksCommand(clock, new PrintStream(out, true, StandardCharsets.UTF_8)), args);
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private Path envFile(Optional<Path> stateDir) throws Exception {
        Path workdir = Files.createDirectories(temp.resolve("workdirs/docs"));
        StringBuilder text = new StringBuilder()
                .append("WORKDIR_01_ALIAS=docs\n")
                .append("WORKDIR_01_PATH=")
                .append(workdir)
                .append('\n');
        stateDir.ifPresent(dir ->
                text.append("SERVERFS_AGENT_BRIDGE_STATE_DIR=").append(dir).append('\n'));
        Path file = temp.resolve("serverfs.env");
        Files.writeString(file, text.toString());
        return file;
    }

    private static TaskId id(int n) {
        return TaskId.fromHex(String.format("%024x", n));
    }

    private static Task task(int n, Instant createdAt) {
        return Task.queued(
                id(n),
                RuntimeName.fromWire("codex").orElseThrow(),
                new WorkdirAlias("docs"),
                1,
                ".",
                TaskProfile.WORKSPACE_WRITE,
                createdAt,
                createdAt.plus(Duration.ofHours(2)),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                new StoredManifest("{}", "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"));
    }
}
