package dev.serverfs.adapters.bridge;

import static org.junit.jupiter.api.Assertions.fail;

import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.out.TurnOutcome;
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
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.AgentLimits;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalRequest;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.Question;
import dev.serverfs.domain.task.QuestionOption;
import dev.serverfs.domain.task.QuestionRequest;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
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

/**
 * The real Agent services over the application's in-memory fakes, a fixed clock and sequential ids, wired the way
 * bootstrap's EmbeddedAgent wires them, with one scripted runtime {@code fake}; {@code codex} is allowlisted but has
 * no adapter, so it lists as unavailable. {@link #interactiveTurn} scripts approval → question → steer → a result
 * large enough to be spooled.
 */
final class AgentFixture implements AutoCloseable {
    static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
    /** Small inline and preview maxima so that a 100-byte result is spooled and its golden lines stay short. */
    static final AgentLimits LIMITS = new AgentLimits(
            65_536, 64, 8_388_608, 65_536, 16, 7_200, 1_800, 604_800, 65_536, 65_536, 65_536, 10_000, 4);
    /** The scripted result: 50 two-byte characters. */
    static final String RESULT = "é".repeat(50);

    final MutableClock clock = new MutableClock(START);
    final InMemoryTaskStore store = new InMemoryTaskStore();
    final InMemoryWriterLeases leases = new InMemoryWriterLeases();
    final ScriptedRuntime fake = new ScriptedRuntime("fake");
    private final ExecutorService runners = Executors.newVirtualThreadPerTaskExecutor();
    private final AgentService lifecycle;
    final AgentUseCases useCases;

    AgentFixture() {
        TreeSet<String> runtimes = new TreeSet<>(List.of("codex", "fake"));
        WorkdirPolicy policy = new WorkdirPolicy(
                false, false, List.of(), 1 << 20, 2000, 1 << 20, false, 1 << 20, AgentMode.WORKSPACE_WRITE, runtimes);
        Workdirs workdirs = new Workdirs(List.of(new Workdir(
                1, new WorkdirAlias("docs"), Optional.empty(), Access.READ_WRITE, policy, Path.of("/srv/docs"))));
        AgentLimits limits = LIMITS;
        InMemoryResultSpool spool = new InMemoryResultSpool();
        lifecycle = TestAgentWiring.agentService(
                workdirs,
                new FakeWorkingDirectories(),
                List.of(fake),
                store,
                spool,
                leases,
                new SequentialIds(),
                new ManualTimers(clock),
                clock,
                runners,
                new AgentService.Settings(limits, Duration.ofMillis(300), "0.7.3-test", List.of()));
        useCases = lifecycle.useCases();
    }

    /** Approval, then a question, then waits (bounded) for one steer message, then a spooled result. */
    void interactiveTurn() {
        fake.turn = (request, context) -> {
            context.requestApproval(new ApprovalRequest(
                    "command",
                    "run the tests",
                    List.of(),
                    List.of(ApprovalDecision.APPROVE_ONCE, ApprovalDecision.DENY, ApprovalDecision.CANCEL_TASK),
                    JsonValue.object().put("command_display", "mvn test").build()));
            context.askQuestion(new QuestionRequest(List.of(new Question(
                    "q1",
                    "which module?",
                    List.of(
                            new QuestionOption("a", "application", Optional.empty()),
                            new QuestionOption("b", "bridge", Optional.of("the new one"))),
                    false,
                    true))));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (fake.steers.isEmpty() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(1_000_000);
            }
            return new TurnOutcome(RESULT, new NativeIds(Optional.of("native-session"), Optional.of("native-turn")));
        };
    }

    Task task(TaskId id) {
        return store.find(id).orElseThrow();
    }

    /** Bounded polling for a condition on the stored task and its events. */
    Task await(TaskId id, Predicate<Task> condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            Task t = task(id);
            if (condition.test(t)) {
                return t;
            }
            LockSupport.parkNanos(1_000_000);
        }
        return fail("condition not reached; task is " + task(id).status().wire());
    }

    /** Waits until the task waits for an interaction and its {@code *.requested} event is stored. */
    Task awaitRequested(TaskId id, String eventType) {
        return await(
                id,
                t -> t.status().isWaiting()
                        && store.events(id, 0, 1000).stream()
                                .anyMatch(e -> e.eventType().equals(eventType)));
    }

    boolean awaitDrained(TaskId id) throws InterruptedException {
        return lifecycle.awaitDrained(id, Duration.ofSeconds(10));
    }

    @Override
    public void close() {
        lifecycle.shutdown();
        runners.shutdownNow();
    }
}
