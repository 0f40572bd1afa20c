package dev.serverfs.application.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.in.AnswerAgentQuestionUseCase;
import dev.serverfs.application.port.in.CancelAgentTaskUseCase;
import dev.serverfs.application.port.in.GetAgentTaskUseCase;
import dev.serverfs.application.port.in.ListAgentRuntimesUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase;
import dev.serverfs.application.port.in.RespondAgentApprovalUseCase;
import dev.serverfs.application.port.in.SendAgentMessageUseCase;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.Submission;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.SubmitAgentTaskCommand;
import dev.serverfs.application.service.agent.AgentService;
import dev.serverfs.application.service.agent.TestAgentWiring;
import dev.serverfs.application.testing.FakeWorkingDirectories;
import dev.serverfs.application.testing.InMemoryResultSpool;
import dev.serverfs.application.testing.InMemoryTaskStore;
import dev.serverfs.application.testing.InMemoryWriterLeases;
import dev.serverfs.application.testing.ManualTimers;
import dev.serverfs.application.testing.MutableClock;
import dev.serverfs.application.testing.ScriptedRuntime;
import dev.serverfs.application.testing.SequentialIds;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.AgentLimits;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.function.Executable;

/** Wires the real services over in-memory fakes, a mutable clock and manual timers. */
final class AgentHarness implements AutoCloseable {
    static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
    static final Path ROOT = Path.of("/srv/serverfs/docs");
    /** The host directories redaction hides, as bootstrap gives them: a home holding the roots, the state, the roots. */
    static final List<String> HOST_DIRECTORIES =
            List.of("/srv", "/var/lib/serverfs", ROOT.toString(), "/srv/serverfs/notes", "/srv/serverfs/off");

    final MutableClock clock = new MutableClock(START);
    final ManualTimers timers = new ManualTimers(clock);
    final InMemoryTaskStore store;
    final InMemoryResultSpool spool = new InMemoryResultSpool();
    final InMemoryWriterLeases leases;
    final SequentialIds ids = new SequentialIds();
    final FakeWorkingDirectories directories = new FakeWorkingDirectories();
    final ScriptedRuntime fake = new ScriptedRuntime("fake");
    final ExecutorService runners = Executors.newVirtualThreadPerTaskExecutor();
    final Workdirs workdirs = new Workdirs(List.of(
            workdir(1, "docs", Access.READ_WRITE, AgentMode.WORKSPACE_WRITE, ROOT),
            workdir(2, "notes", Access.READ_ONLY, AgentMode.REVIEW, Path.of("/srv/serverfs/notes")),
            workdir(3, "off", Access.READ_WRITE, AgentMode.DISABLED, Path.of("/srv/serverfs/off"))));
    final AgentService lifecycle;
    final SubmitAgentTaskUseCase submit;
    final GetAgentTaskUseCase get;
    final ReadAgentTaskEventsUseCase events;
    final ReadAgentTaskResultUseCase result;
    final RespondAgentApprovalUseCase approvals;
    final AnswerAgentQuestionUseCase answers;
    final SendAgentMessageUseCase messages;
    final CancelAgentTaskUseCase cancel;
    final ListAgentRuntimesUseCase runtimes;

    AgentHarness() {
        this(AgentLimits.defaults(), new InMemoryTaskStore(), new InMemoryWriterLeases());
    }

    AgentHarness(AgentLimits limits, InMemoryTaskStore store, InMemoryWriterLeases leases) {
        this.store = store;
        this.leases = leases;
        lifecycle = TestAgentWiring.agentService(
                workdirs,
                directories,
                List.of(fake),
                store,
                spool,
                leases,
                ids,
                timers,
                clock,
                runners,
                new AgentService.Settings(limits, Duration.ofMillis(300), "0.7.3-test", HOST_DIRECTORIES));
        AgentUseCases agent = lifecycle.useCases();
        submit = agent.submit();
        get = agent.get();
        events = agent.events();
        result = agent.result();
        approvals = agent.approval();
        answers = agent.answer();
        messages = agent.message();
        cancel = agent.cancel();
        runtimes = agent.listRuntimes();
    }

    static Workdir workdir(int slot, String alias, Access access, AgentMode mode, Path root) {
        TreeSet<String> runtimes = new TreeSet<>();
        if (mode != AgentMode.DISABLED) {
            runtimes.add("fake");
            runtimes.add("codex");
        }
        WorkdirPolicy policy =
                new WorkdirPolicy(false, false, List.of(), 1 << 20, 2000, 1 << 20, false, 1 << 20, mode, runtimes);
        return new Workdir(slot, new WorkdirAlias(alias), Optional.empty(), access, policy, root);
    }

    static SubmitAgentTaskCommand command(String prompt, Optional<String> key) {
        return SubmitAgentTaskCommand.parse(
                "fake", "docs", prompt, "src", "workspace-write", Optional.empty(), Optional.of("conv-1"), key);
    }

    /** Submits and returns the stored task (as the runner has it by now). */
    Task submitted(String prompt, Optional<String> key) {
        Submission s = submit.submit(command(prompt, key));
        return task(s.handle().taskId());
    }

    Task task(TaskId id) {
        return store.find(id).orElseThrow();
    }

    /** Bounded polling for a condition on the stored task. */
    Task awaitTask(TaskId id, Predicate<Task> condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            Task t = task(id);
            if (condition.test(t)) {
                return t;
            }
            LockSupport.parkNanos(1_000_000);
        }
        return fail("condition not reached; task is " + task(id).status());
    }

    Task awaitStatus(TaskId id, TaskStatus status) {
        return awaitTask(id, t -> t.status() == status);
    }

    void awaitDrained(TaskId id) throws InterruptedException {
        if (!lifecycle.awaitDrained(id, Duration.ofSeconds(10))) {
            fail("runner did not drain");
        }
    }

    List<String> eventTypes(TaskId id) {
        return store.events(id, 0, 1000).stream().map(e -> e.eventType()).toList();
    }

    static void assertCode(ErrorCode code, Executable call) {
        assertEquals(code, assertThrows(ServerFsException.class, call).code());
    }

    @Override
    public void close() {
        lifecycle.shutdown();
        runners.shutdownNow();
    }
}
