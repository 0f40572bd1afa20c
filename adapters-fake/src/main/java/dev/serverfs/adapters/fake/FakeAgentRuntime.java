package dev.serverfs.adapters.fake;

import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.RunContext;
import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.application.port.out.TurnRequest;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalRequest;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.InFlightRecovery;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.Question;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionOption;
import dev.serverfs.domain.task.QuestionRequest;
import dev.serverfs.domain.task.ReconcileResult;
import dev.serverfs.domain.task.ReconcileStatus;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.provider.AgentRuntimeDescriptor;
import dev.serverfs.provider.ProviderChild;
import dev.serverfs.provider.ProviderCommand;
import dev.serverfs.provider.StopPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * The test-only {@code fake} runtime (reference §7.3): every turn runs {@link FakeProvider} in a child process
 * started with {@code command}, records the child's pid and start time for the recovery guard, and relays
 * approvals, questions, steering and cancellation over the child's stdin/stdout. The prompt travels on stdin,
 * never on the command line. Capabilities are all true; version {@code phase-a}.
 *
 * <p>The child is supervised by the shared {@link ProviderChild} (explicit environment, bounded lines, drained
 * stderr). It honours the {@link AgentRuntime} contract that an interrupt of the turn's thread asks the turn to stop:
 * the child's output is taken interruptibly. Every turn ends with the same bounded stop: {@code CANCEL} and a closed
 * stdin, {@link #STOP_GRACE} for the child to exit ({@link #HOLD_GRACE} for a {@code hold:} child), then {@code
 * SIGTERM}, {@code SIGKILL} and {@link #KILL_WAIT} for the exit; those waits ignore further interrupts. An exit it observed is its proof of stop for {@link #reconcile}; so is a later exit of a
 * child it had to give up on. The test modifiers of the prompt ({@code hold:}, {@code unstoppable:}, {@code
 * stall-cancel:}, {@code result-on-cancel:}) are described in {@link FakeProvider}.
 */
public final class FakeAgentRuntime implements AgentRuntime {
    /** The wire name of this runtime. */
    public static final RuntimeName NAME = RuntimeName.of("fake");

    /**
     * Runtime {@code fake}: test-only (offered with {@code SERVERFS_AGENT_ENABLE_FAKE_RUNTIME=true}), no settings, its
     * child the hidden {@code fake-provider} command of the hosting build.
     */
    public static final AgentRuntimeDescriptor DESCRIPTOR = new AgentRuntimeDescriptor(
            NAME,
            true,
            List.of(),
            (values, host) -> new FakeAgentRuntime(host.fakeProviderCommand(), host.environment()));

    /** How long a stopped child gets to exit on its own before it is killed. */
    public static final Duration STOP_GRACE = Duration.ofSeconds(2);
    /** The same for a {@code hold:} child: long enough for a test to release it by killing its pid. */
    public static final Duration HOLD_GRACE = Duration.ofSeconds(60);
    /** How long a killed child gets to be seen exiting. */
    public static final Duration KILL_WAIT = Duration.ofSeconds(10);
    /** How long a child gets after {@code SIGTERM} before {@code SIGKILL} (a JVM child exits on it at once). */
    private static final Duration TERM_WAIT = Duration.ofSeconds(2);
    /** Fake lines carry whole results (up to the 8 MiB result limit, escaped): bounded, but generously. */
    private static final int MAX_LINE_BYTES = 32 * 1024 * 1024;
    /** What the child JVM may inherit: nothing else of the parent's environment reaches it. */
    private static final List<String> INHERITED_ENVIRONMENT = List.of("PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR");

    private final List<String> command;
    private final Map<String, String> environment;
    private final Map<TaskId, Child> children = new ConcurrentHashMap<>();
    /** Tasks whose child this runtime saw exit: local proof of stop for reconciliation. */
    private final Set<TaskId> stopped = ConcurrentHashMap.newKeySet();
    /** Cancels that arrived before the task's child was registered. */
    private final Set<TaskId> earlyCancels = ConcurrentHashMap.newKeySet();

    /**
     * @param command the argv that starts a process running {@link FakeProvider#run}
     * @param environment this process' environment ({@code System.getenv()} in bootstrap); the child gets only its
     *     allow-listed part
     */
    public FakeAgentRuntime(List<String> command, Map<String, String> environment) {
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(ProviderCommand.inherit(environment, INHERITED_ENVIRONMENT));
    }

    @Override
    public RuntimeName name() {
        return NAME;
    }

    @Override
    public RuntimeInfo probe() {
        return new RuntimeInfo(
                NAME.wire(), true, Optional.of("phase-a"), true, true, true, true, InFlightRecovery.NONE);
    }

    @Override
    public TurnOutcome runTurn(TurnRequest request, RunContext context) {
        // A stop requested before the child exists is honoured right after PROMPT; meanwhile no I/O runs with the
        // interrupt flag set.
        boolean stopAtOnce = Thread.interrupted();
        TaskId taskId = request.taskId();
        FakeScript script = FakeScript.parse(request.prompt());
        ProviderChild process = ProviderChild.start(
                new ProviderCommand(command, request.workingDirectory(), environment, MAX_LINE_BYTES));
        // An exit observed at any time, even after this turn gave up on the child, proves the stop.
        process.onExit(() -> stopped.add(taskId));
        Child child = new Child(process, script);
        TurnOutcome outcome;
        boolean exited;
        try {
            process.process().ifPresent(context::providerStarted);
            // PROMPT must be the child's first line: the child is published (and so reachable by a steer or a
            // cancel from another thread) only after it, so nothing can overtake it on the child's stdin.
            child.send("PROMPT", request.prompt());
            children.put(taskId, child);
            NativeIds ids = new NativeIds(
                    Optional.of("fake-session-" + taskId.value().substring(4)), Optional.of("fake-turn-1"));
            context.nativeIds(ids);
            if (earlyCancels.remove(taskId) || stopAtOnce) {
                child.trySend("CANCEL", "");
                Thread.currentThread().interrupt(); // converse stops at once
            }
            outcome = converse(child, context, ids);
        } finally {
            exited = stopChild(child);
            if (exited) {
                stopped.add(taskId);
            }
            children.remove(taskId);
            child.turnEnded.countDown();
        }
        if (!exited) {
            // A turn ends normally only once its provider is gone: the lifecycle takes a normal return as proof.
            throw new ServerFsException(ErrorCode.AGENT_PROVIDER_DISCONNECTED, "the fake provider did not exit");
        }
        return outcome;
    }

    private TurnOutcome converse(Child child, RunContext context, NativeIds ids) {
        while (true) {
            String line;
            try {
                line = child.take();
            } catch (InterruptedException e) {
                // AgentRuntime: an interrupt asks the turn to stop; runTurn's bounded stop follows.
                Thread.currentThread().interrupt();
                throw new ServerFsException(ErrorCode.AGENT_PROVIDER_DISCONNECTED, "the fake provider was stopped");
            }
            if (line == null) {
                throw new ServerFsException(ErrorCode.AGENT_PROVIDER_DISCONNECTED, "the fake provider stopped");
            }
            String argument = FakeWire.argument(line);
            switch (FakeWire.verb(line)) {
                case "EVENT" -> context.event(argument, JsonValue.object().build());
                case "MESSAGE" ->
                    context.event(
                            "agent.message",
                            JsonValue.object().put("text", argument).build());
                case "APPROVAL" -> {
                    ApprovalResolution resolution = context.requestApproval(new ApprovalRequest(
                            "command",
                            "run " + argument,
                            List.of(),
                            List.of(ApprovalDecision.values()),
                            JsonValue.object().put("command_display", argument).build()));
                    child.send("DECISION", resolution.decision().wire());
                }
                case "QUESTION" -> {
                    List<QuestionAnswer> answers = context.askQuestion(new QuestionRequest(List.of(new Question(
                            "q1",
                            argument,
                            List.of(
                                    new QuestionOption("a", "Option A", Optional.empty()),
                                    new QuestionOption("b", "Option B", Optional.empty())),
                            false,
                            true))));
                    QuestionAnswer a = answers.getFirst();
                    child.send(
                            "ANSWER",
                            String.join(",", a.selectedOptionIds())
                                    + a.text().map(t -> " " + t).orElse(""));
                }
                case "RESULT" -> {
                    return new TurnOutcome(argument, ids);
                }
                case "CANCELLED" ->
                    throw new ServerFsException(
                            ErrorCode.AGENT_PROVIDER_DISCONNECTED, "the fake provider was cancelled");
                default -> {
                    // WAITING and unknown lines carry no evidence
                }
            }
        }
    }

    @Override
    public void cancel(TaskId taskId) {
        Child child = children.get(taskId);
        if (child == null) {
            earlyCancels.add(taskId);
        } else if (child.script.stallCancel()) {
            // v0.7.3 §14.3: an interrupt call that never returns; released when the turn ends, so nothing leaks.
            try {
                child.turnEnded.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else {
            child.trySend("CANCEL", "");
        }
    }

    @Override
    public void steer(TaskId taskId, String message) {
        Child child = children.get(taskId);
        if (child == null || !child.trySend("STEER", message)) {
            throw new ServerFsException(ErrorCode.AGENT_TASK_NOT_ACTIVE, "the task is not active in the fake runtime");
        }
    }

    @Override
    public ReconcileResult reconcile(Task task, Optional<ProviderProcess> recordedProcess) {
        if (stopped.contains(task.id())) {
            return new ReconcileResult(ReconcileStatus.NOT_RECOVERABLE, ProviderState.STOPPED, "child exited");
        }
        if (children.containsKey(task.id())) {
            return new ReconcileResult(ReconcileStatus.UNKNOWN, ProviderState.ACTIVE, "child running");
        }
        return ReconcileResult.unknown("no local evidence");
    }

    /**
     * The bounded stop: {@code CANCEL} and a closed stdin, the grace to exit, then {@code SIGTERM} and {@code SIGKILL}
     * (never for an {@code unstoppable:} child) and a bounded wait for the exit. True when the exit was observed.
     * Idempotent.
     */
    private static boolean stopChild(Child child) {
        if (!child.process.isAlive()) {
            return true;
        }
        child.trySend("CANCEL", "");
        FakeScript script = child.script;
        Duration grace = script.hold() ? HOLD_GRACE : STOP_GRACE;
        // unstoppable: as if the kill failed, so there is no proof and the recovery guard must stay
        return child.process.stop(new StopPolicy(grace, TERM_WAIT, KILL_WAIT, !script.unstoppable()));
    }

    /** One child and what its turn shares with {@link #cancel} and {@link #steer}. */
    private static final class Child {
        private final ProviderChild process;
        private final FakeScript script;
        /** Released when the turn is over (a stalled {@code cancel} waits for it). */
        private final CountDownLatch turnEnded = new CountDownLatch(1);

        Child(ProviderChild process, FakeScript script) {
            this.process = process;
            this.script = script;
        }

        /** The next output line, or null at the end of the child's output; interruptible. */
        String take() throws InterruptedException {
            return process.take().orElse(null);
        }

        void send(String verb, String argument) {
            if (!trySend(verb, argument)) {
                throw new ServerFsException(ErrorCode.AGENT_PROVIDER_DISCONNECTED, "the fake provider stopped");
            }
        }

        boolean trySend(String verb, String argument) {
            return process.send(FakeWire.line(verb, argument));
        }
    }
}
