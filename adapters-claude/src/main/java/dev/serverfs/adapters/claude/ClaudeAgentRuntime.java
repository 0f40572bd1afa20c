package dev.serverfs.adapters.claude;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.RunContext;
import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.application.port.out.TurnRequest;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.InFlightRecovery;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionRequest;
import dev.serverfs.domain.task.ReconcileResult;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.provider.AgentRuntimeDescriptor;
import dev.serverfs.provider.AgentRuntimeDescriptor.Setting;
import dev.serverfs.provider.CachedVersion;
import dev.serverfs.provider.InteractionGate;
import dev.serverfs.provider.ProviderChild;
import dev.serverfs.provider.ProviderCommand;
import dev.serverfs.provider.ProviderJson;
import dev.serverfs.provider.ProviderProbe;
import dev.serverfs.provider.ProviderSandbox;
import dev.serverfs.provider.ProviderTurns;
import dev.serverfs.provider.StopPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@code claude} runtime (reference §7.2, PROVIDERS.md Part 2): each turn is one Claude Code CLI child speaking
 * stream-json both ways with {@code --permission-prompt-tool stdio}, in the task's working directory. The child's
 * pid and start time go to the recovery guard as soon as it starts; the native session id as soon as {@code
 * system/init} names it. The turn ends on {@code result} ({@code is_error} decides, never the subtype); an output
 * that ends before it is {@code AGENT_PROVIDER_ERROR}. A continuation is a fresh child with {@code --resume}, which
 * must report the same session id ({@code AGENT_SESSION_NOT_RESUMABLE} otherwise); before it starts, the session's
 * transcript keeps only the lines Claude writes itself ({@link ClaudeTranscript}).
 *
 * <p>Permission requests become approvals and {@code AskUserQuestion} becomes a question, one at a time, each on its
 * own virtual thread so the turn keeps reading (a {@code control_cancel_request} withdraws a pending one). Every
 * control request is answered unless the CLI withdrew it. Stop ({@link #cancel}, an interrupt of the turn's thread,
 * the end of every turn): the {@code interrupt} control request when the turn is still running, then stdin closed,
 * {@link #STOP} (grace, {@code SIGTERM}, {@code SIGKILL}); closing stdin alone does not stop a running turn. An exit
 * this runtime observed is its proof of stop for {@link #reconcile}; otherwise the recorded pid and start time are.
 * Live steering is not supported ({@code live_steer} false).
 */
public final class ClaudeAgentRuntime implements AgentRuntime {
    /** The wire name of this runtime. */
    public static final RuntimeName NAME = RuntimeName.of("claude");

    /** Runtime {@code claude}: its settings (reference §4.5 {@code claude}, §9.3) and how it is built from them. */
    public static final AgentRuntimeDescriptor DESCRIPTOR = new AgentRuntimeDescriptor(
            NAME,
            false,
            List.of(
                    Setting.program(
                            ClaudeSettings.BIN,
                            ClaudeSettings.DEFAULT_BIN,
                            "The Claude Code CLI of runtime claude (a program on PATH or a path)."),
                    Setting.programAlias(
                            "SERVERFS_CLAUDE_BIN",
                            ClaudeSettings.BIN,
                            "The reference's name for the Claude Code CLI, read when SERVERFS_AGENT_CLAUDE_BIN is"
                                    + " unset."),
                    Setting.positiveInt(
                            ClaudeSettings.PROBE_TIMEOUT_SECONDS,
                            "5",
                            "Time bound of the claude --version probe, in seconds.")),
            (values, host) -> new ClaudeAgentRuntime(
                    new ClaudeSettings(
                            values.program(ClaudeSettings.BIN),
                            Duration.ofSeconds(values.positiveInt(ClaudeSettings.PROBE_TIMEOUT_SECONDS)),
                            host.environment()),
                    host.sandbox()));

    /** The longest stdout line accepted: a result carries the whole final response (up to 8 MiB, §3.16). */
    static final int MAX_LINE_BYTES = 16 * 1024 * 1024;
    /**
     * stdin closed, then 3 s for the interrupted turn to end and the child to exit, 3 s after {@code SIGTERM}, 3 s
     * after {@code SIGKILL}: within the 10 s provider-cancel bound (v0.7.3 §6).
     */
    static final StopPolicy STOP =
            new StopPolicy(Duration.ofSeconds(3), Duration.ofSeconds(3), Duration.ofSeconds(3), true);
    /** How long {@link #cancel} lets the interrupted turn end on its own before it stops the child itself. */
    static final Duration CANCEL_GRACE = Duration.ofSeconds(3);
    /** A successful probe is reused this long: submit probes the runtime every time. */
    static final Duration PROBE_CACHE = Duration.ofSeconds(30);

    private final ClaudeSettings settings;
    private final ProviderSandbox sandbox;
    private final ProviderTurns<Turn> turns = new ProviderTurns<>("Claude", STOP, CANCEL_GRACE);
    private final CachedVersion probedVersion = new CachedVersion(this::runProbe, PROBE_CACHE);

    /** {@code sandbox} builds each child's filesystem view (issue 25). */
    public ClaudeAgentRuntime(ClaudeSettings settings, ProviderSandbox sandbox) {
        this.settings = settings;
        this.sandbox = sandbox;
    }

    /** How this runtime runs its provider (tests of {@link #DESCRIPTOR}). */
    ClaudeSettings settings() {
        return settings;
    }

    @Override
    public RuntimeName name() {
        return NAME;
    }

    @Override
    public RuntimeInfo probe() {
        Optional<String> unconfinable = sandbox.unavailableReason();
        if (unconfinable.isPresent()) {
            return RuntimeInfo.unavailable(NAME.wire(), unconfinable.get());
        }
        Optional<String> version = probedVersion.get();
        if (version.isEmpty()) {
            return RuntimeInfo.unavailable(NAME.wire());
        }
        return new RuntimeInfo(NAME.wire(), true, version, true, false, true, true, InFlightRecovery.SESSION_RESUME);
    }

    private Optional<String> runProbe() {
        return ProviderProbe.version(
                        settings.bin(), ClaudeCommandLine.environment(settings.environment()), settings.probeTimeout())
                .map(ClaudeAgentRuntime::versionOf);
    }

    /** {@code 2.1.197 (Claude Code)} → {@code 2.1.197}. */
    static String versionOf(String line) {
        String first = line.strip().split("\\s+")[0];
        return first.length() > 64 ? first.substring(0, 64) : first;
    }

    @Override
    public TurnOutcome runTurn(TurnRequest request, RunContext context) {
        Optional<String> resume = request.resumeFrom().flatMap(NativeIds::sessionId);
        Map<String, String> environment = ClaudeCommandLine.environment(settings.environment());
        ProviderCommand command = new ProviderCommand(
                ClaudeCommandLine.argv(settings.bin(), request.profile(), resume, sandbox.offlineShellPath()),
                request.workingDirectory(),
                environment,
                MAX_LINE_BYTES);
        ProviderSandbox.Grants grants =
                ClaudeCommandLine.grants(settings.bin(), environment, settings.environment(), request.deadlineAt());
        // the session's transcript keeps only Claude's own lines: no session state a task wrote there is restored
        resume.ifPresent(id -> grants.directories()
                .forEach(d -> ClaudeTranscript.clean(
                        sandbox.configurationOf(request.view().root(), d), id)));
        return turns.run(
                request.taskId(),
                sandbox.wrap(command, request.view(), grants),
                context,
                child -> new Turn(child, context, request.profile(), resume, request.prompt()),
                Turn::converse);
    }

    @Override
    public void cancel(TaskId taskId) {
        turns.cancel(taskId);
    }

    @Override
    public void steer(TaskId taskId, String message) {
        // Reference §3.8 / §7.2: live steering is disabled for Claude; a follow-up is a continuation task.
        throw new ServerFsException(
                ErrorCode.AGENT_PROVIDER_ERROR,
                "Claude does not take messages during a turn (live_steer is false): submit a continuation");
    }

    @Override
    public ReconcileResult reconcile(Task task, Optional<ProviderProcess> recordedProcess) {
        return turns.reconcile(task, recordedProcess);
    }

    /** One running turn: its child, what it learnt so far, and its pending interaction. */
    private static final class Turn implements ProviderTurns.Turn {
        private final ProviderChild child;
        private final RunContext context;
        private final TaskProfile profile;
        private final Optional<String> resume;
        private final String prompt;
        private final AtomicBoolean interruptSent = new AtomicBoolean();
        /** One interaction at a time: the application keeps one pending request per task. */
        private final InteractionGate gate = new InteractionGate();

        private volatile boolean cancelRequested;
        private volatile boolean resultSeen;
        private Optional<String> sessionId = Optional.empty();
        private String lastText = "";
        private int requestIds;

        Turn(ProviderChild child, RunContext context, TaskProfile profile, Optional<String> resume, String prompt) {
            this.child = child;
            this.context = context;
            this.profile = profile;
            this.resume = resume;
            this.prompt = prompt;
        }

        @Override
        public ProviderChild child() {
            return child;
        }

        /** The initialize request and the prompt, before anything can interrupt the turn. */
        @Override
        public void begin() {
            send(ClaudeWire.initialize("init_1"));
            send(ClaudeWire.userMessage(prompt));
        }

        void send(String line) {
            if (!child.send(line)) {
                throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "the Claude process stopped");
            }
        }

        /** Asks the CLI to stop the running turn; once. */
        @Override
        public void interrupt() {
            cancelRequested = true;
            if (!resultSeen && interruptSent.compareAndSet(false, true)) {
                child.send(ClaudeWire.interrupt("interrupt_1"));
            }
        }

        /** Ends the child: an unfinished turn is interrupted first. True when its exit was observed. */
        @Override
        public boolean finish() {
            if (!resultSeen && child.isAlive()) {
                interrupt();
            }
            return child.stop(STOP);
        }

        TurnOutcome converse() {
            while (true) {
                Optional<String> line;
                try {
                    line = child.take();
                } catch (InterruptedException e) {
                    // AgentRuntime: an interrupt asks the turn to stop; finish() stops the child.
                    Thread.currentThread().interrupt();
                    throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "the Claude turn was stopped");
                }
                if (line.isEmpty()) {
                    if (resume.isPresent() && sessionId.isEmpty()) {
                        throw new ServerFsException(
                                ErrorCode.AGENT_SESSION_NOT_RESUMABLE, "the Claude session could not be resumed");
                    }
                    throw new ServerFsException(
                            ErrorCode.AGENT_PROVIDER_ERROR, "the Claude process ended before its result");
                }
                Optional<TurnOutcome> outcome = handle(ClaudeWire.parse(line.get()));
                if (outcome.isPresent()) {
                    return outcome.get();
                }
            }
        }

        private Optional<TurnOutcome> handle(ClaudeMessage message) {
            switch (message) {
                case ClaudeMessage.Init init -> started(init.sessionId());
                case ClaudeMessage.ApiRetry retry ->
                    context.event(
                            "provider.error",
                            JsonValue.object()
                                    .put("message", "the model API call failed; Claude retries it")
                                    .put("will_retry", true)
                                    .build());
                case ClaudeMessage.Assistant assistant -> assistant.blocks().forEach(this::block);
                case ClaudeMessage.Result result -> {
                    resultSeen = true;
                    return Optional.of(result(result));
                }
                case ClaudeMessage.ControlRequest request -> controlRequest(request);
                case ClaudeMessage.ControlCancel cancel -> withdraw(cancel.requestId());
                case ClaudeMessage.ControlResponse response -> {
                    // our initialize and interrupt were answered; nothing waits on them
                }
                case ClaudeMessage.Other other -> {
                    // status lines, tool results, keep-alives: no evidence a task shows
                }
            }
            return Optional.empty();
        }

        private void started(String id) {
            if (sessionId.isPresent()) {
                return; // re-emitted at the start of every user turn
            }
            if (resume.isPresent() && !resume.get().equals(id)) {
                throw new ServerFsException(
                        ErrorCode.AGENT_SESSION_NOT_RESUMABLE, "Claude started a different session");
            }
            sessionId = Optional.of(id);
            context.nativeIds(new NativeIds(sessionId, Optional.empty()));
            context.event("turn.started", JsonValue.object().build());
        }

        private void block(ClaudeMessage.Block block) {
            switch (block) {
                case ClaudeMessage.Text text -> {
                    lastText = text.text();
                    context.event(
                            "agent.message",
                            JsonValue.object().put("text", text.text()).build());
                }
                case ClaudeMessage.ToolUse use -> context.event(toolEventType(use.name()), toolEvent(use));
            }
        }

        private static String toolEventType(String tool) {
            return switch (ClaudePermissions.category(tool)) {
                case "command" -> "command.started";
                case "file_change" -> "file_change.started";
                default -> "tool.started";
            };
        }

        /** Reference §3.13; a file change shows the file, never the content Claude is about to write. */
        private static JsonValue.JsonObject toolEvent(ClaudeMessage.ToolUse use) {
            var event = JsonValue.object().put("tool_use_id", use.id());
            switch (ClaudePermissions.category(use.name())) {
                case "command" ->
                    event.put(
                            "command",
                            ProviderJson.cut(use.input().path("command").asText("")));
                case "file_change" -> {
                    JsonNode path = use.input().has("file_path")
                            ? use.input().path("file_path")
                            : use.input().path("notebook_path");
                    event.put("tool", use.name())
                            .put(
                                    "input",
                                    JsonValue.object()
                                            .put("file_path", path.asText(""))
                                            .build());
                }
                default -> event.put("tool", use.name());
            }
            return event.build();
        }

        private TurnOutcome result(ClaudeMessage.Result result) {
            if (cancelRequested) {
                throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "the Claude turn was interrupted");
            }
            if (result.isError()) {
                throw new ServerFsException(
                        ErrorCode.AGENT_PROVIDER_ERROR,
                        "Claude ended the turn with an error"
                                + result.apiErrorStatus()
                                        .map(s -> " (model API status " + s + ")")
                                        .orElse(""));
            }
            Optional<String> session = sessionId.or(result::sessionId);
            NativeIds ids = new NativeIds(session, result.uuid());
            context.nativeIds(ids);
            return new TurnOutcome(result.text().orElse(lastText), ids);
        }

        private void controlRequest(ClaudeMessage.ControlRequest request) {
            if (!request.subtype().equals("can_use_tool")) {
                child.send(ClaudeWire.error(request.requestId(), "not supported by ServerFS"));
                return;
            }
            Thread.ofVirtual().name("claude-permission").start(() -> decide(request));
        }

        /** Runs on its own thread: waits for the human, then answers unless the CLI withdrew the request. */
        private void decide(ClaudeMessage.ControlRequest request) {
            String id = request.requestId();
            // Timed out, stale or the task ended (the lifecycle stops the turn), or a bad request: deny.
            gate.decide(id, () -> answer(request), e -> ClaudeWire.deny(id, "The request was not approved", false))
                    .ifPresent(child::send);
        }

        private String answer(ClaudeMessage.ControlRequest request) {
            String id = request.requestId();
            JsonNode r = request.request();
            JsonNode input = r.path("input");
            if (ClaudeQuestions.TOOL.equals(r.path("tool_name").asText(""))) {
                Optional<QuestionRequest> questions = ClaudeQuestions.request(input);
                if (questions.isEmpty()) {
                    return ClaudeWire.deny(id, ClaudeQuestions.REFUSED, false);
                }
                List<QuestionAnswer> answers = context.askQuestion(questions.get());
                return ClaudeWire.allow(id, ClaudeQuestions.answered(input, questions.get(), answers), List.of());
            }
            if (profile == TaskProfile.REVIEW) {
                // A review task never asks a human to let Claude change something: refused at once.
                return ClaudeWire.deny(id, ClaudePermissions.REVIEW_DENIED, false);
            }
            ClaudePermissions.Prepared prepared = ClaudePermissions.approval(r);
            ApprovalResolution resolution = context.requestApproval(prepared.request());
            if (resolution.decision() == ApprovalDecision.CANCEL_TASK) {
                cancelRequested = true; // the deny with interrupt ends the turn; the lifecycle cancels the task
            }
            return ClaudePermissions.response(id, r, resolution, prepared.sessionUpdates());
        }

        private void withdraw(String requestId) {
            if (gate.withdraw(requestId)) {
                context.abandonPendingRequest();
            }
        }
    }
}
