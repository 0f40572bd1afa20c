package dev.serverfs.bootstrap.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.Submission;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.SubmitAgentTaskCommand;
import dev.serverfs.application.port.in.TaskView;
import dev.serverfs.bootstrap.ServerFsMain;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.bootstrap.launch.ServerFsProcess;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskStatus;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded Agent over a real SQLite file, real flock leases and the fake runtime's child processes. */
class EmbeddedAgentIT {
    private static final int SWAP_STARTS = 25;

    @TempDir
    Path dir;

    private ServerFsConfig.Agent config(Path state, Path locks) {
        return new ServerFsConfig.Agent(
                true,
                true,
                dir.resolve("bridge.sock"),
                Duration.ofSeconds(30),
                locks,
                Optional.of(state),
                true,
                Duration.ofHours(2),
                Duration.ofMinutes(30),
                4,
                Duration.ofHours(168),
                List.of("fake"));
    }

    private Workdirs workdirs(Path root) {
        WorkdirPolicy policy = new WorkdirPolicy(
                false,
                false,
                List.of(),
                1 << 20,
                2000,
                1 << 20,
                false,
                1 << 20,
                AgentMode.WORKSPACE_WRITE,
                new TreeSet<>(List.of("fake")));
        return new Workdirs(
                List.of(new Workdir(2, new WorkdirAlias("docs"), Optional.empty(), Access.READ_WRITE, policy, root)));
    }

    private static TaskView await(EmbeddedAgent agent, TaskId id, Predicate<TaskView> condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            TaskView t = agent.useCases().get().get(id);
            if (condition.test(t)) {
                return t;
            }
            LockSupport.parkNanos(20_000_000);
        }
        return fail("not reached");
    }

    /** The previous task releases its lease only after its child exited: a new one is refused, never queued. */
    private static TaskId submitWhenSlotFree(EmbeddedAgent agent, SubmitAgentTaskCommand command) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                return agent.useCases().submit().submit(command).handle().taskId();
            } catch (ServerFsException e) {
                if (e.code() != ErrorCode.WORKDIR_BUSY || System.nanoTime() > deadline) {
                    throw e;
                }
                LockSupport.parkNanos(20_000_000);
            }
        }
    }

    @Test
    void submit_retry_wait_cancel_and_restart_over_real_sqlite_and_flock() throws Exception {
        Path state = Files.createDirectory(
                dir.resolve("state"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path locks = dir.resolve("locks");
        Path root = Files.createDirectory(dir.resolve("docs"));
        List<String> child = ServerFsProcess.javaCommand(ServerFsMain.class.getName(), "fake-provider");
        FlockWriterLeases mutationGate = new FlockWriterLeases(locks);
        TaskId echo;
        TaskId waiting;
        try (EmbeddedAgent agent =
                EmbeddedAgent.start(config(state, locks), workdirs(root), List.of(), child, Clock.systemUTC(), "t")) {
            SubmitAgentTaskCommand command = SubmitAgentTaskCommand.parse(
                    "fake",
                    "docs",
                    "hello",
                    "",
                    "workspace-write",
                    Optional.empty(),
                    Optional.of("c-1"),
                    Optional.of("objective-1"));
            echo = agent.useCases().submit().submit(command).handle().taskId();
            Submission retry = agent.useCases().submit().submit(command);
            assertInstanceOf(Submission.Replayed.class, retry);
            assertEquals(echo, retry.handle().taskId());
            assertEquals(
                    "echo: hello",
                    await(agent, echo, t -> t.status().isTerminal())
                            .result()
                            .orElseThrow()
                            .finalResponse());

            waiting = submitWhenSlotFree(
                    agent,
                    SubmitAgentTaskCommand.parse(
                            "fake",
                            "docs",
                            "wait:",
                            "",
                            "workspace-write",
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty()));
            await(agent, waiting, t -> t.status() == TaskStatus.RUNNING);
            assertEquals(
                    ErrorCode.WORKDIR_BUSY,
                    assertThrows(ServerFsException.class, () -> mutationGate.acquireForMutation(2))
                            .code());
            assertEquals(
                    TaskStatus.CANCELLED,
                    agent.useCases().cancel().cancel(waiting).status());
            assertEquals(
                    TaskStatus.CANCELLED, agent.useCases().get().get(waiting).status());
            assertTrue(agent.awaitDrained(waiting, Duration.ofSeconds(30)), "runner drained after cancel");
        }
        // After close the lease is free and the guard is gone (the child's exit was observed).
        mutationGate.acquireForMutation(2).close();
        try (EmbeddedAgent again =
                EmbeddedAgent.start(config(state, locks), workdirs(root), List.of(), child, Clock.systemUTC(), "t")) {
            assertEquals(TaskStatus.SUCCEEDED, again.useCases().get().get(echo).status(), "rows survive a restart");
            assertTrue(again.reconcileSlot(2));
        }
    }

    /**
     * A second Agent service started on the same state directory (serve started twice, or a Bridge beside an embedded
     * serve) is refused before its start-up reconciliation: it must not mark the first one's live task interrupted
     * while that task's provider still runs and holds the writer lease.
     */
    @Test
    void a_second_agent_service_on_the_same_state_directory_is_refused_and_leaves_live_tasks_alone() throws Exception {
        Path state = Files.createDirectory(
                dir.resolve("state"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path locks = dir.resolve("locks");
        Path root = Files.createDirectory(dir.resolve("docs"));
        List<String> child = ServerFsProcess.javaCommand(ServerFsMain.class.getName(), "fake-provider");
        try (EmbeddedAgent first =
                EmbeddedAgent.start(config(state, locks), workdirs(root), List.of(), child, Clock.systemUTC(), "t")) {
            TaskId waiting = first.useCases()
                    .submit()
                    .submit(SubmitAgentTaskCommand.parse(
                            "fake",
                            "docs",
                            "wait:",
                            "",
                            "workspace-write",
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty()))
                    .handle()
                    .taskId();
            await(first, waiting, t -> t.status() == TaskStatus.RUNNING);
            ServerFsException refused = assertThrows(
                    ServerFsException.class,
                    () -> EmbeddedAgent.start(
                                    config(state, locks), workdirs(root), List.of(), child, Clock.systemUTC(), "t")
                            .close());
            assertEquals(ErrorCode.CONFIGURATION_ERROR, refused.code());
            assertEquals(
                    TaskStatus.RUNNING, first.useCases().get().get(waiting).status(), "the live task was left alone");
            assertEquals(
                    TaskStatus.CANCELLED,
                    first.useCases().cancel().cancel(waiting).status());
            assertTrue(first.awaitDrained(waiting, Duration.ofSeconds(30)), "runner drained after cancel");
        }
        // Once the first service closed, the directory is free for the next one.
        EmbeddedAgent.start(config(state, locks), workdirs(root), List.of(), child, Clock.systemUTC(), "t")
                .close();
    }

    /**
     * Issue 10 item 9: a provider child never starts outside the workdir, even while its starting directory is
     * swapped for a symlink to an outside directory in a loop. Real children (the fake runtime running {@code cat}),
     * real {@code openat2}, real flock guards; each child's {@code /proc/<pid>/cwd} is checked.
     */
    @Test
    void a_symlink_swapped_in_never_moves_a_provider_child_out_of_the_workdir() throws Exception {
        Path state = Files.createDirectory(
                dir.resolve("state"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path locks = dir.resolve("locks");
        Path root = Files.createDirectory(dir.resolve("docs")).toRealPath();
        Path outside = Files.createDirectory(dir.resolve("outside")).toRealPath();
        Path sub = Files.createDirectory(root.resolve("sub"));
        Path away = root.resolve("sub.away");
        // The child echoes its stdin (lines the fake runtime ignores) until the stop closes it, then exits at once.
        List<String> provider = List.of("/bin/cat");
        FlockWriterLeases guards = new FlockWriterLeases(locks);
        AtomicBoolean swapping = new AtomicBoolean(true);
        AtomicReference<Throwable> swapFailure = new AtomicReference<>();
        Thread swapper = Thread.ofPlatform().name("symlink-swapper").start(() -> {
            try {
                while (swapping.get()) {
                    Files.move(sub, away);
                    Files.createSymbolicLink(sub, outside);
                    Files.delete(sub);
                    Files.move(away, sub);
                }
            } catch (IOException | RuntimeException e) {
                swapFailure.set(e);
            }
        });
        int started = 0;
        int refused = 0;
        try (EmbeddedAgent agent = EmbeddedAgent.start(
                config(state, locks), workdirs(root), List.of(), provider, Clock.systemUTC(), "t")) {
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (started < SWAP_STARTS && System.nanoTime() < deadline) {
                TaskId id;
                try {
                    id = agent.useCases()
                            .submit()
                            .submit(SubmitAgentTaskCommand.parse(
                                    "fake",
                                    "docs",
                                    "wait:",
                                    "sub",
                                    "workspace-write",
                                    Optional.empty(),
                                    Optional.empty(),
                                    Optional.empty()))
                            .handle()
                            .taskId();
                } catch (ServerFsException e) {
                    // the swap was half-way when the directory was opened: refused, never followed
                    assertTrue(
                            Set.of(ErrorCode.PATH_NOT_FOUND, ErrorCode.SYMLINK_NOT_ALLOWED, ErrorCode.NOT_A_DIRECTORY)
                                    .contains(e.code()),
                            e.code().wire());
                    refused++;
                    continue;
                }
                Optional<Long> child = providerPid(agent, guards, id);
                if (child.isEmpty()) {
                    // the child could not start where it was sent (e.g. the name was gone): failed, never outside
                    assertTrue(agent.awaitDrained(id, Duration.ofSeconds(30)), "runner drained");
                    refused++;
                    continue;
                }
                long pid = child.get();
                Path cwd = Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "cwd"));
                agent.useCases().cancel().cancel(id);
                assertTrue(agent.awaitDrained(id, Duration.ofSeconds(30)), "runner drained");
                assertTrue(
                        cwd.startsWith(root) && !cwd.startsWith(outside),
                        "start " + started + " ran outside the workdir (" + (cwd.startsWith(outside) ? "outside" : "?")
                                + ")");
                started++;
            }
        } finally {
            swapping.set(false);
            swapper.join();
        }
        assertEquals(null, swapFailure.get());
        assertEquals(SWAP_STARTS, started, "children started (" + refused + " refused mid-swap)");
    }

    /** The child's pid, from the recovery guard the runtime updates once it runs; empty if the task ended first. */
    private static Optional<Long> providerPid(EmbeddedAgent agent, FlockWriterLeases guards, TaskId id) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            Optional<Long> pid = guards.readGuard(2)
                    .filter(g -> g.taskId().equals(id))
                    .flatMap(RecoveryGuard::provider)
                    .map(p -> p.pid());
            if (pid.isPresent()) {
                return pid;
            }
            if (agent.useCases().get().get(id).status().isTerminal()) {
                return Optional.empty();
            }
            LockSupport.parkNanos(5_000_000);
        }
        return fail("the provider child was not recorded");
    }
}
