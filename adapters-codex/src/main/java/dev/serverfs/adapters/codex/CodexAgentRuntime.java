package dev.serverfs.adapters.codex;

import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.RunContext;
import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.application.port.out.TurnRequest;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.InFlightRecovery;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ReconcileResult;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.provider.AgentRuntimeDescriptor;
import dev.serverfs.provider.AgentRuntimeDescriptor.Setting;
import dev.serverfs.provider.CachedVersion;
import dev.serverfs.provider.ProviderCommand;
import dev.serverfs.provider.ProviderProbe;
import dev.serverfs.provider.ProviderSandbox;
import dev.serverfs.provider.ProviderTurns;
import dev.serverfs.provider.StopPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code codex} runtime (reference §7.1, PROVIDERS.md Part 1): each turn is one {@code codex app-server} child
 * this runtime owns, speaking JSON-RPC over stdio, one JSON object per line, in the task's working directory; the
 * child's pid and start time go to the recovery guard as soon as it starts. {@code initialize}/{@code initialized},
 * then {@code thread/start} (or {@code thread/resume}, which must name the same thread, else {@code
 * AGENT_SESSION_NOT_RESUMABLE}), then {@code turn/start}; the turn ends on {@code turn/completed}. Each request is
 * bounded by {@link CodexSettings#requestTimeout} ({@code AGENT_PROVIDER_DISCONNECTED}); a JSON-RPC error is {@code
 * AGENT_PROVIDER_ERROR}; the child's output ending mid-turn (exit, broken pipe) is {@code
 * AGENT_PROVIDER_DISCONNECTED}; a line over {@link CodexSettings#maxMessageBytes} fails the turn ({@code AGENT_PROVIDER_ERROR}).
 * The sandbox and approval policy come from the task's profile ({@link CodexCommandLine}).
 *
 * <p>Approvals and questions (see {@link CodexTurn}) are asked one at a time, each on its own virtual thread so the
 * turn keeps reading; {@code serverRequest/resolved} withdraws a pending one. Stop ({@link #cancel}, an interrupt of
 * the turn's thread, the end of every turn): {@code turn/interrupt} while the turn runs, then stdin closed, {@link
 * #STOP} (grace, {@code SIGTERM}, {@code SIGKILL}); {@link #CANCEL_GRACE} plus {@link #STOP} stay within the 10 s
 * provider-cancel bound (v0.7.3 §6). An exit this runtime observed is its proof of stop for {@link #reconcile};
 * otherwise the recorded pid and start time are.
 */
public final class CodexAgentRuntime implements AgentRuntime {
    /** The wire name of this runtime. */
    public static final RuntimeName NAME = RuntimeName.of("codex");

    /**
     * Runtime {@code codex}: its settings (reference §9.3, as far as they apply to a {@code codex app-server} child;
     * {@code SERVERFS_CODEX_AUTOSTART}, the reference's daemon start, does not: ServerFS starts every child itself).
     */
    public static final AgentRuntimeDescriptor DESCRIPTOR = new AgentRuntimeDescriptor(
            NAME,
            false,
            List.of(
                    Setting.program(
                            CodexSettings.BIN,
                            CodexSettings.DEFAULT_BIN,
                            "The Codex CLI of runtime codex, run as codex app-server (a program on PATH or a path)."),
                    Setting.programAlias(
                            "SERVERFS_CODEX_BIN",
                            CodexSettings.BIN,
                            "The reference's name for the Codex CLI, read when SERVERFS_AGENT_CODEX_BIN is unset."),
                    Setting.absolutePath(
                            CodexSettings.HOME,
                            "CODEX_HOME of every Codex child (absolute path); unset, the server's own CODEX_HOME passes"
                                    + " through."),
                    Setting.positiveInt(
                            CodexSettings.REQUEST_TIMEOUT_SECONDS,
                            "10",
                            "Bound of each JSON-RPC request to a Codex child and of the codex --version probe, in"
                                    + " seconds."),
                    Setting.unused(
                            "SERVERFS_CODEX_AUTOSTART",
                            "false",
                            "The reference's daemon autostart: accepted, unused (ServerFS starts every Codex child"
                                    + " itself).")),
            (values, host) -> new CodexAgentRuntime(
                    new CodexSettings(
                            values.program(CodexSettings.BIN),
                            values.absolutePath(CodexSettings.HOME),
                            Duration.ofSeconds(values.positiveInt(CodexSettings.REQUEST_TIMEOUT_SECONDS)),
                            host.environment()),
                    host.sandbox()));

    /** stdin closed, then 2 s (Codex exits in well under a second), 3 s after SIGTERM, 3 s after SIGKILL. */
    static final StopPolicy STOP =
            new StopPolicy(Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(3), true);
    /** How long {@link #cancel} lets the interrupted turn end on its own before it stops the child itself. */
    static final Duration CANCEL_GRACE = Duration.ofSeconds(1);
    /** A successful probe is reused this long: submit probes the runtime every time. */
    static final Duration PROBE_CACHE = Duration.ofSeconds(30);

    private final CodexSettings settings;
    private final ProviderSandbox sandbox;
    private final ProviderTurns<CodexTurn> turns = new ProviderTurns<>("Codex", STOP, CANCEL_GRACE);
    private final CachedVersion version = new CachedVersion(this::runProbe, PROBE_CACHE);

    /** {@code sandbox} builds each child's filesystem view (issue 25). */
    public CodexAgentRuntime(CodexSettings settings, ProviderSandbox sandbox) {
        this.settings = settings;
        this.sandbox = sandbox;
    }

    /** How this runtime runs its provider (tests of {@link #DESCRIPTOR}). */
    CodexSettings settings() {
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
        Optional<String> v = version.get();
        if (v.isEmpty()) {
            return RuntimeInfo.unavailable(NAME.wire());
        }
        return new RuntimeInfo(NAME.wire(), true, v, true, true, true, true, InFlightRecovery.SESSION_RESUME);
    }

    private Optional<String> runProbe() {
        return ProviderProbe.version(
                        settings.bin(),
                        CodexCommandLine.environment(settings.environment(), settings.codexHome()),
                        settings.requestTimeout())
                .map(CodexAgentRuntime::versionOf);
    }

    /** {@code codex-cli 0.169.0} → {@code 0.169.0}. */
    static String versionOf(String line) {
        String[] words = line.strip().split("\\s+");
        String last = words[words.length - 1];
        return last.length() > 64 ? last.substring(0, 64) : last;
    }

    @Override
    public TurnOutcome runTurn(TurnRequest request, RunContext context) {
        Map<String, String> environment = CodexCommandLine.environment(settings.environment(), settings.codexHome());
        // what a resume would restore from the transcripts of the thread and of any sub-agent, which an earlier task
        // could rewrite (probes R, S); a new task's resume_agent restores an earlier task's sub-agent too (probe S2).
        // Only in the workdir's own copy of CODEX_HOME: an unconfined child uses the operator's own, left as it is.
        Optional<Path> home = CodexCommandLine.codexHome(environment);
        Optional<Path> own =
                home.flatMap(h -> sandbox.ownConfigurationOf(request.view().root(), h));
        own.ifPresent(
                h -> CodexRollout.forgetSessionState(h, request.resumeFrom().flatMap(NativeIds::sessionId)));
        ProviderCommand command = new ProviderCommand(
                CodexCommandLine.argv(settings.bin(), own.isPresent() ? home : Optional.empty()),
                request.workingDirectory(),
                environment,
                settings.maxMessageBytes());
        return turns.run(
                request.taskId(),
                sandbox.wrap(
                        command,
                        request.view(),
                        CodexCommandLine.grants(
                                settings.bin(), environment, settings.environment(), request.deadlineAt())),
                context,
                child -> new CodexTurn(child, context, request, settings.requestTimeout()),
                CodexTurn::run);
    }

    @Override
    public void cancel(TaskId taskId) {
        turns.cancel(taskId);
    }

    @Override
    public void steer(TaskId taskId, String message) {
        turns.running(taskId)
                .orElseThrow(() ->
                        new ServerFsException(ErrorCode.AGENT_TASK_NOT_ACTIVE, "the task has no running Codex turn"))
                .steer(message);
    }

    @Override
    public ReconcileResult reconcile(Task task, Optional<ProviderProcess> recordedProcess) {
        return turns.reconcile(task, recordedProcess);
    }
}
