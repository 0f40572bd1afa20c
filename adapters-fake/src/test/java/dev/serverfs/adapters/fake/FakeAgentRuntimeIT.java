package dev.serverfs.adapters.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.serverfs.application.port.in.AnswerAgentQuestionUseCase;
import dev.serverfs.application.port.in.CancelAgentTaskUseCase;
import dev.serverfs.application.port.in.RespondAgentApprovalUseCase;
import dev.serverfs.application.port.in.SendAgentMessageUseCase;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.SubmitAgentTaskCommand;
import dev.serverfs.application.port.out.ProviderView;
import dev.serverfs.application.port.out.RunContext;
import dev.serverfs.application.port.out.TurnRequest;
import dev.serverfs.application.service.agent.AgentService;
import dev.serverfs.application.service.agent.TestAgentWiring;
import dev.serverfs.application.testing.FakeWorkingDirectories;
import dev.serverfs.application.testing.InMemoryResultSpool;
import dev.serverfs.application.testing.InMemoryTaskStore;
import dev.serverfs.application.testing.InMemoryWriterLeases;
import dev.serverfs.application.testing.ManualTimers;
import dev.serverfs.application.testing.MutableClock;
import dev.serverfs.application.testing.SequentialIds;
import dev.serverfs.application.testing.TaskFixtures;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.AgentLimits;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalRequest;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionRequest;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskStatus;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fake runtime's child processes driven by the real lifecycle over in-memory stores. */
class FakeAgentRuntimeIT {
    @TempDir
    Path root;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-04-01T08:00:00Z"));
    private final InMemoryTaskStore store = new InMemoryTaskStore();
    private final InMemoryWriterLeases leases = new InMemoryWriterLeases();
    private final ExecutorService runners = Executors.newVirtualThreadPerTaskExecutor();
    private final ManualTimers timers = new ManualTimers(clock);
    /** Provider pids a test saw: killed after each test, whatever happened. */
    private final List<Long> pids = new CopyOnWriteArrayList<>();

    private AgentService lifecycle;
    private SubmitAgentTaskUseCase submit;

    @BeforeEach
    void wire() {
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
        Workdirs workdirs = new Workdirs(
                List.of(new Workdir(1, new WorkdirAlias("docs"), Optional.empty(), Access.READ_WRITE, policy, root)));
        FakeAgentRuntime fake =
                new FakeAgentRuntime(javaCommand(FakeProviderTestMain.class.getName()), System.getenv());
        lifecycle = TestAgentWiring.agentService(
                workdirs,
                new FakeWorkingDirectories(),
                List.of(fake),
                store,
                new InMemoryResultSpool(),
                leases,
                new SequentialIds(),
                timers,
                clock,
                runners,
                // a short provider-cancel bound keeps the stalled-cancel case quick; the fake's cancel is immediate
                new AgentService.Settings(AgentLimits.defaults(), Duration.ofSeconds(1), "test", List.of()));
        submit = lifecycle.useCases().submit();
    }

    @AfterEach
    void stop() {
        pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        lifecycle.shutdown();
        runners.shutdownNow();
    }

    /** Waits until the guard records the provider child, and remembers its pid for the clean-up. */
    private long providerPid() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Optional<Long> pid =
                    leases.readGuard(1).flatMap(RecoveryGuard::provider).map(p -> p.pid());
            if (pid.isPresent()) {
                pids.add(pid.get());
                return pid.get();
            }
            LockSupport.parkNanos(5_000_000);
        }
        return fail("the guard never recorded the provider");
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static void kill(long pid) throws Exception {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isPresent()) {
            handle.get().destroyForcibly();
            handle.get().onExit().get(30, TimeUnit.SECONDS);
        }
    }

    /** Lets the pending interaction of task {@code id} expire (its timer fires on the test's clock). */
    private void expireInteraction(TaskId id) {
        clock.advance(AgentLimits.defaults().interactionTimeout().plusSeconds(1));
        assertTrue(timers.fireDue() > 0, "the interaction timer fired");
    }

    private TaskId submit(String prompt) {
        return submit.submit(SubmitAgentTaskCommand.parse(
                        "fake",
                        "docs",
                        prompt,
                        "",
                        "workspace-write",
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty()))
                .handle()
                .taskId();
    }

    private Task await(TaskId id, Predicate<Task> condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Task t = store.find(id).orElseThrow();
            if (condition.test(t)) {
                return t;
            }
            LockSupport.parkNanos(5_000_000);
        }
        return fail("not reached; task is " + store.find(id).orElseThrow().status());
    }

    private void drained(TaskId id) throws InterruptedException {
        assertTrue(lifecycle.awaitDrained(id, Duration.ofSeconds(30)));
    }

    @Test
    void echo_turn_runs_in_a_child_and_clears_its_guard() throws Exception {
        TaskId id = submit("hello");
        Task done = await(id, Task::isTerminal);
        assertEquals(TaskStatus.SUCCEEDED, done.status());
        assertEquals("echo: hello", done.result().orElseThrow().finalResponse());
        assertTrue(done.nativeIds().sessionId().isPresent());
        drained(id);
        assertEquals(Optional.empty(), leases.readGuard(1));
        assertFalse(leases.isHeld(1));
        List<String> types =
                store.events(id, 0, 100).stream().map(e -> e.eventType()).toList();
        assertTrue(types.containsAll(List.of("task.started", "turn.started", "agent.message", "task.completed")));
    }

    @Test
    void approval_and_question_round_trip_through_the_child() throws Exception {
        RespondAgentApprovalUseCase approvals = lifecycle.useCases().approval();
        TaskId a = submit("approval:make test");
        Task waiting = await(a, t -> t.status() == TaskStatus.WAITING_FOR_APPROVAL);
        RecoveryGuard guard = leases.readGuard(1).orElseThrow();
        assertTrue(guard.provider().isPresent(), "the guard records the child pid and start time");
        approvals.respond(
                a,
                waiting.pendingRequestId().orElseThrow(),
                new ApprovalResolution(ApprovalDecision.APPROVE_ONCE, Optional.empty()));
        assertEquals(
                "approval make test: approve_once",
                await(a, Task::isTerminal).result().orElseThrow().finalResponse());
        drained(a);

        AnswerAgentQuestionUseCase answers = lifecycle.useCases().answer();
        TaskId q = submit("question:pick one");
        Task asking = await(q, t -> t.status() == TaskStatus.WAITING_FOR_QUESTION);
        answers.answer(
                q,
                asking.pendingRequestId().orElseThrow(),
                List.of(new QuestionAnswer("q1", List.of("b"), Optional.of("because"))));
        assertEquals(
                "answered: b because",
                await(q, Task::isTerminal).result().orElseThrow().finalResponse());
    }

    @Test
    void steering_completes_a_steer_turn() throws Exception {
        TaskId id = submit("steer:");
        await(id, t -> t.status() == TaskStatus.RUNNING);
        SendAgentMessageUseCase messages = lifecycle.useCases().message();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                messages.send(id, "use tabs");
                break;
            } catch (ServerFsException e) {
                // the child may not be started yet
                assertEquals(ErrorCode.AGENT_TASK_NOT_ACTIVE, e.code());
                assertTrue(System.nanoTime() < deadline);
                LockSupport.parkNanos(10_000_000);
            }
        }
        assertEquals(
                "steered: use tabs",
                await(id, Task::isTerminal).result().orElseThrow().finalResponse());
    }

    @Test
    void cancelling_a_waiting_child_is_terminal_first_and_the_stop_is_proven() throws Exception {
        TaskId id = submit("wait:");
        await(
                id,
                t -> t.status() == TaskStatus.RUNNING
                        && leases.readGuard(1).flatMap(RecoveryGuard::provider).isPresent());
        long pid = leases.readGuard(1).orElseThrow().provider().orElseThrow().pid();
        CancelAgentTaskUseCase.CancelOutcome outcome =
                lifecycle.useCases().cancel().cancel(id);
        assertEquals(TaskStatus.CANCELLED, outcome.status());
        drained(id);
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "child stopped");
        assertEquals(Optional.empty(), leases.readGuard(1), "the runtime saw its child exit: proof of stop");
        assertFalse(leases.isHeld(1));
    }

    // ----------------------------------------------------------- stopping: interrupts, proofs, test modifiers

    @Test
    void an_interaction_timeout_stops_the_child_and_its_guard_is_gone_when_the_slot_is_released() throws Exception {
        TaskId id = submit("question:which?");
        await(id, t -> t.status() == TaskStatus.WAITING_FOR_QUESTION);
        long pid = providerPid();
        expireInteraction(id);
        assertEquals(
                ErrorCode.AGENT_INTERACTION_TIMED_OUT,
                store.find(id).orElseThrow().failure().orElseThrow().code());
        drained(id);
        assertFalse(leases.isHeld(1));
        assertEquals(Optional.empty(), leases.readGuard(1), "the exit was observed before the guard was decided");
        assertFalse(alive(pid));
    }

    @Test
    void an_unstoppable_child_keeps_the_guard_after_cleanup_until_its_recorded_pid_is_gone() throws Exception {
        TaskId id = submit("unstoppable:question:which?");
        await(id, t -> t.status() == TaskStatus.WAITING_FOR_QUESTION);
        long pid = providerPid();
        expireInteraction(id);
        drained(id);
        assertFalse(leases.isHeld(1), "the lease is released after the bounded stop");
        assertTrue(alive(pid), "the runtime gave up without killing it");
        assertTrue(leases.readGuard(1).isPresent(), "no proof of stop: the guard stays");
        assertFalse(lifecycle.reconcileSlot(1), "still running: fail-closed");
        kill(pid);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!lifecycle.reconcileSlot(1)) {
            assertTrue(System.nanoTime() < deadline, "the exit was never taken as proof");
            LockSupport.parkNanos(5_000_000);
        }
        assertEquals(Optional.empty(), leases.readGuard(1));
        assertEquals(TaskStatus.INTERRUPTED, store.find(id).orElseThrow().status());
    }

    @Test
    void a_held_child_keeps_the_lease_after_cancel_until_the_test_kills_it() throws Exception {
        TaskId id = submit("hold:wait:");
        await(id, t -> t.status() == TaskStatus.RUNNING);
        long pid = providerPid();
        assertEquals(
                TaskStatus.CANCELLED, lifecycle.useCases().cancel().cancel(id).status());
        assertTrue(lifecycle.isLive(id), "cleanup waits for the child");
        assertTrue(leases.isHeld(1));
        assertTrue(alive(pid), "the child ignores CANCEL and its closed stdin");
        kill(pid);
        drained(id);
        assertFalse(leases.isHeld(1));
        assertEquals(Optional.empty(), leases.readGuard(1), "the observed exit is the proof");
        assertEquals(TaskStatus.CANCELLED, store.find(id).orElseThrow().status());
    }

    @Test
    void a_stalled_runtime_cancel_is_bounded_and_the_interrupt_still_stops_the_child() throws Exception {
        TaskId id = submit("stall-cancel:wait:");
        await(id, t -> t.status() == TaskStatus.RUNNING);
        long pid = providerPid();
        assertEquals(
                TaskStatus.CANCELLED, lifecycle.useCases().cancel().cancel(id).status());
        drained(id);
        assertFalse(alive(pid));
        assertFalse(leases.isHeld(1));
        assertEquals(Optional.empty(), leases.readGuard(1));
    }

    @Test
    void a_normal_result_after_cancel_keeps_the_task_cancelled_and_clears_the_guard() throws Exception {
        TaskId id = submit("result-on-cancel:wait:");
        await(id, t -> t.status() == TaskStatus.RUNNING);
        providerPid();
        assertEquals(
                TaskStatus.CANCELLED, lifecycle.useCases().cancel().cancel(id).status());
        drained(id);
        Task done = store.find(id).orElseThrow();
        assertEquals(TaskStatus.CANCELLED, done.status());
        assertEquals(Optional.empty(), done.result());
        assertEquals(Optional.empty(), leases.readGuard(1));
    }

    @Test
    void a_stopping_turn_waits_out_repeated_interrupts_and_records_the_exit_it_observes() throws Exception {
        FakeAgentRuntime fake =
                new FakeAgentRuntime(javaCommand(FakeProviderTestMain.class.getName()), System.getenv());
        Task task = TaskFixtures.queued(7);
        CompletableFuture<Long> pid = new CompletableFuture<>();
        RunContext context = new RunContext() {
            @Override
            public void event(String eventType, JsonValue.JsonObject payload) {}

            @Override
            public void nativeIds(NativeIds ids) {}

            @Override
            public void providerStarted(ProviderProcess process) {
                pid.complete(process.pid());
            }

            @Override
            public ApprovalResolution requestApproval(ApprovalRequest request) {
                throw new UnsupportedOperationException();
            }

            @Override
            public List<QuestionAnswer> askQuestion(QuestionRequest request) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void abandonPendingRequest() {}
        };
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread turn = Thread.ofPlatform().start(() -> {
            try {
                fake.runTurn(
                        new TurnRequest(
                                task.id(),
                                "hold:wait:",
                                root,
                                new ProviderView(root, root, true, List.of()),
                                TaskProfile.WORKSPACE_WRITE,
                                Optional.empty(),
                                task.deadlineAt()),
                        context);
                ended.complete(null);
            } catch (Throwable t) {
                ended.complete(t);
            }
        });
        long child = pid.get(30, TimeUnit.SECONDS);
        pids.add(child);
        for (int i = 0; i < 5; i++) {
            // The first interrupt asks the turn to stop; each next one lands in its bounded wait for the exit
            // (Process.waitFor with a timeout: TIMED_WAITING), which must go on waiting.
            turn.interrupt();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (turn.getState() != Thread.State.TIMED_WAITING) {
                assertTrue(System.nanoTime() < deadline, "the turn never reached its bounded wait");
                assertFalse(ended.isDone(), "a held child keeps the turn in its bounded stop");
                LockSupport.parkNanos(1_000_000);
            }
        }
        assertFalse(ended.isDone(), "a held child keeps the turn in its bounded stop");
        assertTrue(alive(child), "interrupts neither kill the child nor end the wait");
        assertEquals(
                ProviderState.ACTIVE, fake.reconcile(task, Optional.empty()).provider());
        kill(child);
        Throwable failure = ended.get(30, TimeUnit.SECONDS);
        assertEquals(ErrorCode.AGENT_PROVIDER_DISCONNECTED, ((ServerFsException) failure).code());
        assertEquals(
                ProviderState.STOPPED, fake.reconcile(task, Optional.empty()).provider(), "the observed exit is proof");
        turn.join(TimeUnit.SECONDS.toMillis(30));
    }

    /** The argv that runs {@code mainClass} on this JVM and class path. */
    private static List<String> javaCommand(String mainClass) {
        return List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                mainClass);
    }
}
