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
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The test-only {@code fake} runtime (reference §7.3): every turn runs {@link FakeProvider} in a child process
 * started with {@code command}, records the child's pid and start time for the recovery guard, and relays
 * approvals, questions, steering and cancellation over the child's stdin/stdout. The prompt travels on stdin,
 * never on the command line. Capabilities are all true; version {@code phase-a}.
 */
public final class FakeAgentRuntime implements AgentRuntime {
    public static final String NAME = "fake";

    private final List<String> command;
    private final Map<TaskId, Child> children = new ConcurrentHashMap<>();
    /** Tasks whose child this runtime saw exit: local proof of stop for reconciliation. */
    private final Set<TaskId> stopped = ConcurrentHashMap.newKeySet();
    /** Cancels that arrived before the task's child was registered. */
    private final Set<TaskId> earlyCancels = ConcurrentHashMap.newKeySet();

    /** @param command the argv that starts a process running {@link FakeProvider#run} */
    public FakeAgentRuntime(List<String> command) {
        this.command = List.copyOf(command);
    }

    /** The argv that runs {@code mainClass} with {@code args} on the current JVM and class path. */
    public static List<String> javaCommand(String mainClass, String... args) {
        List<String> argv = new ArrayList<>();
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        argv.add("-cp");
        argv.add(System.getProperty("java.class.path"));
        argv.add(mainClass);
        argv.addAll(List.of(args));
        return argv;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RuntimeInfo probe() {
        return new RuntimeInfo(NAME, true, Optional.of("phase-a"), true, true, true, true, InFlightRecovery.NONE);
    }

    @Override
    public TurnOutcome runTurn(TurnRequest request, RunContext context) {
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .directory(request.workingDirectory().toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            throw new ServerFsException(ErrorCode.AGENT_RUNTIME_UNAVAILABLE, "the fake provider could not start");
        }
        Child child = new Child(process);
        try {
            startTime(process.pid())
                    .ifPresent(start -> context.providerStarted(new ProviderProcess(process.pid(), start)));
            // PROMPT must be the child's first line: the child is published (and so reachable by a steer or a
            // cancel from another thread) only after it, so nothing can overtake it on the child's stdin.
            child.send("PROMPT", request.prompt());
            children.put(request.taskId(), child);
            if (earlyCancels.remove(request.taskId()) || Thread.currentThread().isInterrupted()) {
                child.trySend("CANCEL", "");
            }
            NativeIds ids = new NativeIds(
                    Optional.of("fake-session-" + request.taskId().value().substring(4)), Optional.of("fake-turn-1"));
            context.nativeIds(ids);
            return converse(child, context, ids);
        } finally {
            children.remove(request.taskId());
            if (stopChild(process)) {
                stopped.add(request.taskId());
            }
        }
    }

    private TurnOutcome converse(Child child, RunContext context, NativeIds ids) {
        while (true) {
            String line = child.read();
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
        if (child != null) {
            child.trySend("CANCEL", "");
        } else {
            earlyCancels.add(taskId);
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

    /** Waits briefly for a clean exit, then kills; true when the child is known to have exited. */
    private static boolean stopChild(Process process) {
        // A cancelled runner arrives here interrupted; clear the flag so the bounded waits still happen.
        boolean interrupted = Thread.interrupted();
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return process.waitFor(10, TimeUnit.SECONDS);
            }
            return true;
        } catch (InterruptedException e) {
            interrupted = true;
            process.destroyForcibly();
            return false;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Optional<Long> startTime(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] rest = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return Optional.of(Long.parseLong(rest[19]));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The pipes of one child. */
    private static final class Child {
        private final Process process;
        private final BufferedReader out;
        private final Writer in;

        Child(Process process) {
            this.process = process;
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        }

        String read() {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        }

        void send(String verb, String argument) {
            if (!trySend(verb, argument)) {
                throw new ServerFsException(ErrorCode.AGENT_PROVIDER_DISCONNECTED, "the fake provider stopped");
            }
        }

        synchronized boolean trySend(String verb, String argument) {
            if (!process.isAlive()) {
                return false;
            }
            try {
                in.write(FakeWire.line(verb, argument) + "\n");
                in.flush();
                return true;
            } catch (IOException e) {
                return false;
            }
        }
    }
}
