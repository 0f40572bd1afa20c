package dev.serverfs.application.service;

import dev.serverfs.application.port.in.CancelAgentTaskUseCase.CancelOutcome;
import dev.serverfs.application.port.in.InteractionAck;
import dev.serverfs.application.port.in.SendAgentMessageUseCase.MessageAck;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.Submission;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.SubmitAgentTaskCommand;
import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.IdGenerator;
import dev.serverfs.application.port.out.InsertOutcome;
import dev.serverfs.application.port.out.ResultSpool;
import dev.serverfs.application.port.out.RunContext;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.application.port.out.Timers;
import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.application.port.out.TurnRequest;
import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.application.port.out.WriterLeases.WriterLease;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.json.CanonicalJson;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.AgentLimits;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalRequest;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.CallerMetadata;
import dev.serverfs.domain.task.EventRedaction;
import dev.serverfs.domain.task.EventType;
import dev.serverfs.domain.task.ExecutionManifest;
import dev.serverfs.domain.task.InteractionKind;
import dev.serverfs.domain.task.InteractionRules;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionRequest;
import dev.serverfs.domain.task.ReconcileResult;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.RecoveryPolicy;
import dev.serverfs.domain.task.RelativeCwd;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.ResultPlacement;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.SubmissionFingerprint;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskStatus;
import dev.serverfs.domain.task.Timestamps;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.Workdirs;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * The Agent task lifecycle shared by the nine Agent services (reference §4.3, v0.7.3 plan): submission with the
 * idempotent fast path and the second look-up under the submit lock, one runner per task, one timer per pending
 * interaction plus the task deadline, terminal-first cancellation, provider cancel bounded on every path, result
 * placement, retention GC and reconciliation. The writer lease is released only by the runner's cleanup, after
 * the runtime returned; the recovery guard is removed only with proof that the provider stopped.
 */
public final class TaskLifecycle implements SlotRecovery {
    private static final Set<String> NATIVE_RUNTIMES = Set.of("codex", "claude");

    /** Service settings: limits frozen into manifests, the provider-cancel bound (10 s), the version string. */
    public record Settings(AgentLimits limits, Duration providerCancelBound, String bridgeVersion) {
        public Settings {
            Objects.requireNonNull(limits, "limits");
            Objects.requireNonNull(providerCancelBound, "providerCancelBound");
            Objects.requireNonNull(bridgeVersion, "bridgeVersion");
        }

        public static Settings defaults(AgentLimits limits, String bridgeVersion) {
            return new Settings(limits, Duration.ofSeconds(10), bridgeVersion);
        }
    }

    private final Workdirs workdirs;
    private final Map<String, AgentRuntime> runtimes;
    private final TaskStore store;
    private final ResultSpool spool;
    private final WriterLeases leases;
    private final IdGenerator ids;
    private final Timers timers;
    private final Clock clock;
    private final Executor runners;
    private final Settings settings;
    private final AgentLimits limits;
    private final ReentrantLock submitLock = new ReentrantLock();
    private final Map<TaskId, LiveRun> live = new ConcurrentHashMap<>();

    public TaskLifecycle(
            Workdirs workdirs,
            List<AgentRuntime> runtimes,
            TaskStore store,
            ResultSpool spool,
            WriterLeases leases,
            IdGenerator ids,
            Timers timers,
            Clock clock,
            Executor runners,
            Settings settings) {
        this.workdirs = Objects.requireNonNull(workdirs, "workdirs");
        Map<String, AgentRuntime> byName = new ConcurrentHashMap<>();
        runtimes.forEach(r -> byName.put(r.name(), r));
        this.runtimes = Map.copyOf(byName);
        this.store = Objects.requireNonNull(store, "store");
        this.spool = Objects.requireNonNull(spool, "spool");
        this.leases = Objects.requireNonNull(leases, "leases");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.timers = Objects.requireNonNull(timers, "timers");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.runners = Objects.requireNonNull(runners, "runners");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.limits = settings.limits();
    }

    public AgentLimits limits() {
        return limits;
    }

    Workdirs workdirs() {
        return workdirs;
    }

    Map<String, AgentRuntime> runtimes() {
        return runtimes;
    }

    /** True while the task's runner has not finished its cleanup (lease still held if it had one). */
    public boolean isLive(TaskId id) {
        return live.containsKey(id);
    }

    /** Waits until the task's runner finished its cleanup; true if it did within the timeout. */
    public boolean awaitDrained(TaskId id, Duration timeout) throws InterruptedException {
        LiveRun run = live.get(id);
        return run == null || run.drained.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    // ---------------------------------------------------------------------------------------------- submit

    Submission submit(SubmitAgentTaskCommand c) {
        Optional<String> correlationId = CallerMetadata.correlationId(c.correlationId());
        Optional<String> key = CallerMetadata.idempotencyKey(c.idempotencyKey());
        gc();
        if (c.prompt().getBytes(StandardCharsets.UTF_8).length > limits.maxPromptBytes()) {
            throw new ServerFsException(ErrorCode.AGENT_PROMPT_TOO_LARGE, "prompt is too large");
        }
        TaskProfile profile = TaskProfile.fromWire(c.profile())
                .orElseThrow(() -> new ServerFsException(ErrorCode.AGENT_PROFILE_NOT_ALLOWED, "unknown profile"));
        String path = RelativeCwd.normalize(c.path());
        Optional<String> fingerprint = key.map(k -> SubmissionFingerprint.of(
                c.runtime(), c.workdir(), path, profile, c.prompt(), c.continueFromTaskId(), correlationId));

        // v0.7.3 §3.3: the fast path runs before authorization, preflight or any lease.
        Optional<Submission> replay = replay(key, fingerprint);
        if (replay.isPresent()) {
            return replay.get();
        }

        Workdir workdir = authorize(c.runtime(), c.workdir(), profile);
        if (c.continueFromTaskId().isPresent()) {
            checkContinuation(c.continueFromTaskId().get(), c.runtime(), workdir, profile);
        }
        AgentRuntime runtime = runtimes.get(c.runtime());
        RuntimeInfo info = runtime == null ? RuntimeInfo.unavailable(c.runtime()) : probe(runtime);
        if (!info.available()) {
            throw new ServerFsException(ErrorCode.AGENT_RUNTIME_UNAVAILABLE, c.runtime() + " is unavailable");
        }
        Instant now = now();
        Instant deadline = now.plus(limits.taskTimeout());
        ExecutionManifest manifest = new ExecutionManifest(
                settings.bridgeVersion(),
                info,
                workdir.alias().value(),
                workdir.slot(),
                path,
                profile,
                !workdir.readWrite(),
                workdir.policy().agentMode(),
                workdir.policy().agentRuntimes(),
                limits,
                c.continueFromTaskId(),
                correlationId,
                key,
                deadline);
        Task task = Task.queued(
                ids.newTaskId(),
                c.runtime(),
                workdir.alias(),
                workdir.slot(),
                path,
                profile,
                now,
                deadline,
                c.continueFromTaskId(),
                correlationId,
                key,
                fingerprint,
                manifest.toStored());
        Optional<NativeIds> resumeFrom =
                c.continueFromTaskId().flatMap(store::find).map(Task::nativeIds);
        TurnRequest turn = new TurnRequest(
                task.id(),
                c.prompt(),
                path.isEmpty() ? workdir.root() : workdir.root().resolve(path),
                profile,
                resumeFrom,
                deadline);

        submitLock.lock();
        try {
            // v0.7.3 §3.3 step 6: look again under the submit lock so concurrent retries converge.
            replay = replay(key, fingerprint);
            if (replay.isPresent()) {
                return replay.get();
            }
            WriterLease lease = profile.holdsWriterLease() ? acquireForTask(workdir.slot()) : null;
            Task created;
            try {
                InsertOutcome outcome = store.insert(task, limits.maxActiveTasks());
                if (outcome instanceof InsertOutcome.Existing existing) {
                    closeQuietly(lease);
                    return replayOf(existing.task(), fingerprint);
                }
                created = outcome.task();
            } catch (RuntimeException e) {
                closeQuietly(lease);
                throw e;
            }
            LiveRun run = new LiveRun(created, workdir, runtime, lease);
            live.put(created.id(), run);
            try {
                if (lease != null) {
                    lease.publishGuard(RecoveryGuard.forTask(created, now));
                    run.guard = RecoveryGuard.forTask(created, now);
                }
                run.deadlineTimer = timers.schedule(deadline, () -> onDeadline(run));
                runners.execute(() -> runTask(run, turn));
            } catch (ServerFsException | RejectedExecutionException e) {
                schedulingFailed(run);
                throw new ServerFsException(ErrorCode.BRIDGE_SCHEDULING_FAILED, "the task could not be scheduled");
            }
            return new Submission.Created(created);
        } finally {
            submitLock.unlock();
        }
    }

    private Optional<Submission> replay(Optional<String> key, Optional<String> fingerprint) {
        if (key.isEmpty()) {
            return Optional.empty();
        }
        return store.findByIdempotencyKey(key.get()).map(existing -> replayOf(existing, fingerprint));
    }

    private static Submission replayOf(Task existing, Optional<String> fingerprint) {
        if (!existing.requestFingerprint().equals(fingerprint)) {
            throw new ServerFsException(
                    ErrorCode.AGENT_IDEMPOTENCY_CONFLICT,
                    "idempotency_key was already used for a different submission");
        }
        return new Submission.Replayed(existing);
    }

    private Workdir authorize(String runtime, String alias, TaskProfile profile) {
        Workdir workdir = workdirs.require(alias);
        AgentMode mode = workdir.policy().agentMode();
        if (mode == AgentMode.DISABLED) {
            throw new ServerFsException(ErrorCode.AGENT_DISABLED, "Agent delegation is disabled for " + alias);
        }
        if (!workdir.policy().agentRuntimes().contains(runtime)) {
            throw new ServerFsException(ErrorCode.AGENT_RUNTIME_NOT_ALLOWED, runtime + " is not allowed for " + alias);
        }
        if (profile.rank() > mode.rank() || (profile.holdsWriterLease() && !workdir.readWrite())) {
            throw new ServerFsException(
                    ErrorCode.AGENT_PROFILE_NOT_ALLOWED, profile.wire() + " is not allowed for " + alias);
        }
        if (NATIVE_RUNTIMES.contains(runtime) && profile != TaskProfile.WORKSPACE_WRITE) {
            throw new ServerFsException(
                    ErrorCode.AGENT_PROFILE_NOT_ALLOWED, runtime + " runs only with the workspace-write profile");
        }
        return workdir;
    }

    private void checkContinuation(TaskId from, String runtime, Workdir workdir, TaskProfile profile) {
        Task prior = store.find(from)
                .orElseThrow(() -> new ServerFsException(ErrorCode.AGENT_TASK_NOT_FOUND, "unknown task"));
        boolean resumable = prior.runtime().equals(runtime)
                && prior.workdirAlias().equals(workdir.alias())
                && prior.nativeIds().sessionId().isPresent()
                && prior.isTerminal();
        if (!resumable) {
            throw new ServerFsException(ErrorCode.AGENT_SESSION_NOT_RESUMABLE, "the task cannot be continued");
        }
        if (prior.profile() == TaskProfile.REVIEW && profile == TaskProfile.WORKSPACE_WRITE) {
            throw new ServerFsException(
                    ErrorCode.AGENT_PROFILE_NOT_ALLOWED, "a review task cannot continue as workspace-write");
        }
    }

    private static RuntimeInfo probe(AgentRuntime runtime) {
        try {
            return runtime.probe();
        } catch (RuntimeException e) {
            return RuntimeInfo.unavailable(runtime.name());
        }
    }

    /** Takes the slot's lease and lazily reconciles a guard left by an earlier task (reference §4.3, §6.2). */
    private WriterLease acquireForTask(int slot) {
        WriterLease lease = leases.acquire(slot);
        try {
            Optional<RecoveryGuard> guard = leases.readGuard(slot);
            if (guard.isPresent() && !recoverGuard(lease, guard.get())) {
                throw new ServerFsException(
                        ErrorCode.WORKDIR_RECOVERY_REQUIRED, "workdir slot " + twoDigits(slot) + " needs recovery");
            }
            return lease;
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
    }

    private void schedulingFailed(LiveRun run) {
        terminate(run.id, t -> t.interrupted(ErrorCode.BRIDGE_SCHEDULING_FAILED, "task could not be scheduled", now()));
        cancelTimer(run.deadlineTimer);
        live.remove(run.id);
        if (run.lease != null) {
            // The provider never started: that is proof enough to drop the guard.
            try {
                run.lease.removeGuard(run.id);
            } catch (RuntimeException ignored) {
                // the guard keeps the slot fail-closed; reconciliation can clear it later
            }
            run.lease.close();
        }
        run.drained.countDown();
    }

    // ---------------------------------------------------------------------------------------------- runner

    private void runTask(LiveRun run, TurnRequest turn) {
        // Until the turn starts no provider runs: an early return is itself proof of stop.
        boolean providerStopped = true;
        try {
            if (run.cancelRequested.get()) {
                return;
            }
            Task task = store.update(run.id, t -> t.status() == TaskStatus.QUEUED ? t.starting(now()) : t);
            if (task.status() != TaskStatus.STARTING) {
                return;
            }
            event(
                    run.id,
                    EventType.TASK_STARTED,
                    JsonValue.object().put("runtime", task.runtime()).build());
            task = store.update(run.id, t -> t.status() == TaskStatus.STARTING ? t.running(now()) : t);
            if (task.status() != TaskStatus.RUNNING) {
                return;
            }
            TurnOutcome outcome;
            providerStopped = false;
            enterTurn(run);
            try {
                outcome = run.runtime.runTurn(turn, new Context(run));
                providerStopped = true;
            } catch (ServerFsException e) {
                providerFailed(run, e.code(), e.getMessage());
                return;
            } catch (RuntimeException e) {
                providerFailed(run, ErrorCode.AGENT_PROVIDER_ERROR, "the provider failed");
                return;
            } finally {
                leaveTurn(run);
            }
            recordNativeIds(run, outcome.nativeIds());
            complete(run, outcome.finalResponse());
        } catch (RuntimeException e) {
            providerFailed(run, ErrorCode.AGENT_PROVIDER_ERROR, "the task failed");
        } finally {
            cleanup(run, providerStopped);
        }
    }

    /**
     * The runner enters the provider turn: from here a stop interrupts it (AgentRuntime: an interrupt asks the turn
     * to stop). A stop requested just before is delivered at once.
     */
    private static void enterTurn(LiveRun run) {
        synchronized (run) {
            run.turnThread = Thread.currentThread();
            if (run.stopRequested) {
                run.turnThread.interrupt();
            }
        }
    }

    /**
     * The turn is over: later stops no longer interrupt the runner, and a pending interrupt is cleared, so the
     * bookkeeping after it (spool, guard files) never fails with ClosedByInterruptException.
     */
    private static void leaveTurn(LiveRun run) {
        synchronized (run) {
            run.turnThread = null;
            Thread.interrupted();
        }
    }

    private void complete(LiveRun run, String finalResponse) {
        String text = EventRedaction.redactText(finalResponse, hostRoot(run.workdir));
        switch (ResultPlacement.of(text, limits)) {
            case ResultPlacement.Inline inline -> {
                if (terminate(run.id, t -> t.succeeded(inline.result(), now())).isPresent()) {
                    completedEvent(
                            run.id,
                            inline.result().storage().wire(),
                            inline.result().sizeBytes());
                }
            }
            case ResultPlacement.Spool spooled -> {
                Task current = store.find(run.id).orElseThrow();
                if (current.isTerminal()) {
                    return;
                }
                try {
                    spool.write(run.id, spooled.utf8());
                } catch (ServerFsException e) {
                    providerFailed(run, ErrorCode.AGENT_RESULT_STORAGE_ERROR, "the result could not be stored");
                    return;
                }
                event(
                        run.id,
                        EventType.TASK_RESULT_SPOOLED,
                        JsonValue.object()
                                .put("size_bytes", spooled.result().sizeBytes())
                                .put("sha256", spooled.result().sha256())
                                .build());
                if (terminate(run.id, t -> t.succeeded(spooled.result(), now())).isPresent()) {
                    completedEvent(
                            run.id,
                            spooled.result().storage().wire(),
                            spooled.result().sizeBytes());
                } else {
                    spool.delete(run.id);
                }
            }
            case ResultPlacement.TooLarge tooLarge ->
                providerFailed(run, ErrorCode.AGENT_RESULT_TOO_LARGE, "the final response exceeds the spool limit");
        }
    }

    private void completedEvent(TaskId id, String storage, long size) {
        event(
                id,
                EventType.TASK_COMPLETED,
                JsonValue.object()
                        .put("result_storage", storage)
                        .put("result_size_bytes", size)
                        .build());
    }

    /** Reference §4.3 Run: errors while waiting interrupt the task, otherwise fail it. */
    private void providerFailed(LiveRun run, ErrorCode code, String message) {
        Optional<Task> ended = terminate(
                run.id,
                t -> t.status().isWaiting() || t.status() == TaskStatus.QUEUED
                        ? t.interrupted(code, message, now())
                        : t.failed(code, message, now()));
        ended.ifPresent(t -> event(
                run.id,
                t.status() == TaskStatus.FAILED ? EventType.TASK_FAILED : EventType.TASK_INTERRUPTED,
                JsonValue.object().put("error_code", code.wire()).build()));
    }

    private void cleanup(LiveRun run, boolean providerStopped) {
        Thread.interrupted(); // cleanup I/O must not be aborted by a stray interrupt (e.g. executor shutdownNow)
        Pending pending = run.pending;
        if (pending != null) {
            cancelTimer(pending.timer);
            pending.waiter.completeExceptionally(terminal());
        }
        cancelTimer(run.deadlineTimer);
        try {
            Task task = store.find(run.id).orElse(null);
            if (task != null && !task.isTerminal()) {
                providerFailed(run, ErrorCode.AGENT_PROVIDER_ERROR, "the task ended without a result");
            }
            if (run.lease != null) {
                // v0.7.3 §6: the guard goes only after a clean provider return (the runtime returns only once its
                // provider is gone) or a proven stop.
                ProviderState state = providerStopped
                        ? ProviderState.STOPPED
                        : provenState(Optional.ofNullable(task), Optional.ofNullable(run.guard));
                if (RecoveryPolicy.mayRemoveGuard(state)) {
                    try {
                        run.lease.removeGuard(run.id);
                    } catch (RuntimeException ignored) {
                        // stays fail-closed; lazy reconciliation retries
                    }
                }
            }
        } finally {
            live.remove(run.id);
            closeQuietly(run.lease);
            run.drained.countDown();
            try {
                gc();
            } catch (RuntimeException ignored) {
                // GC is retried at the next submit
            }
        }
    }

    private void recordNativeIds(LiveRun run, NativeIds nativeIds) {
        if (nativeIds.equals(NativeIds.NONE)) {
            return;
        }
        store.update(run.id, t -> t.isTerminal() ? t : t.withNativeIds(nativeIds, now()));
        RecoveryGuard guard = run.guard;
        if (run.lease != null && guard != null) {
            RecoveryGuard next = guard.withNativeIds(nativeIds, now());
            try {
                run.lease.replaceGuard(next);
                run.guard = next;
            } catch (RuntimeException ignored) {
                // the previous guard still names the task: still fail-closed
            }
        }
    }

    // ------------------------------------------------------------------------------ timers and stopping

    private void onDeadline(LiveRun run) {
        Optional<Task> ended = terminate(
                run.id, t -> t.interrupted(ErrorCode.AGENT_TASK_TIMED_OUT, "the task deadline passed", now()));
        if (ended.isPresent()) {
            event(
                    run.id,
                    EventType.TASK_INTERRUPTED,
                    JsonValue.object()
                            .put("error_code", ErrorCode.AGENT_TASK_TIMED_OUT.wire())
                            .build());
            failPending(run, ErrorCode.AGENT_TASK_TIMED_OUT);
            stopProvider(run);
        }
    }

    private void onInteractionExpired(LiveRun run, RequestId requestId, InteractionKind kind) {
        Optional<Task> ended = terminate(
                run.id,
                t -> t.pendingRequestId().equals(Optional.of(requestId))
                        ? t.interrupted(ErrorCode.AGENT_INTERACTION_TIMED_OUT, "the interaction timed out", now())
                        : t);
        if (ended.isPresent()) {
            event(
                    run.id,
                    EventType.INTERACTION_EXPIRED,
                    JsonValue.object()
                            .put("request_id", requestId.value())
                            .put("kind", kind.wire())
                            .build());
            event(
                    run.id,
                    EventType.TASK_INTERRUPTED,
                    JsonValue.object()
                            .put("error_code", ErrorCode.AGENT_INTERACTION_TIMED_OUT.wire())
                            .build());
            failPending(run, ErrorCode.AGENT_INTERACTION_TIMED_OUT);
            stopProvider(run);
        }
    }

    private void failPending(LiveRun run, ErrorCode code) {
        Pending pending = run.pending;
        if (pending != null) {
            cancelTimer(pending.timer);
            pending.waiter.completeExceptionally(new ServerFsException(code, "the interaction ended"));
        }
    }

    /**
     * First stop only: provider cancel bounded by the settings (10 s), then the runner's turn is interrupted (only
     * while it is inside {@link AgentRuntime#runTurn}; a turn that starts later is interrupted as it starts).
     */
    private void stopProvider(LiveRun run) {
        if (run.providerCancelAttempted.compareAndSet(false, true)) {
            boundedProviderCancel(run);
        }
        synchronized (run) {
            run.stopRequested = true;
            if (run.turnThread != null) {
                run.turnThread.interrupt();
            }
        }
    }

    private void boundedProviderCancel(LiveRun run) {
        if (run.runtime == null) {
            return;
        }
        CompletableFuture<Void> cancel = new CompletableFuture<>();
        Thread.ofVirtual().name("provider-cancel-" + run.id).start(() -> {
            try {
                run.runtime.cancel(run.id);
                cancel.complete(null);
            } catch (RuntimeException e) {
                cancel.completeExceptionally(e);
            }
        });
        try {
            cancel.get(settings.providerCancelBound().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // v0.7.3 §14.3: a stalled or failed interrupt never blocks cleanup; the guard still needs proof.
        }
    }

    // ---------------------------------------------------------------------------------------------- cancel

    CancelOutcome cancel(TaskId id) {
        Task task = require(id);
        if (task.isTerminal()) {
            return new CancelOutcome(id, task.status(), task.correlationId());
        }
        LiveRun run = live.get(id);
        if (run != null) {
            run.cancelRequested.set(true);
        }
        // v0.7.3 §14.1: persist cancelled (pending request → stale) before returning.
        Optional<Task> ended = terminate(id, t -> t.cancelled(now()));
        if (ended.isPresent()) {
            event(id, EventType.TASK_CANCELLED, JsonValue.object().build());
        }
        if (run != null) {
            failPending(run, ErrorCode.AGENT_TASK_TERMINAL);
            stopProvider(run);
        }
        try {
            gc();
        } catch (RuntimeException ignored) {
            // retried later
        }
        Task current = ended.orElseGet(() -> require(id));
        return new CancelOutcome(id, current.status(), current.correlationId());
    }

    // -------------------------------------------------------------------------------------- interactions

    InteractionAck respondApproval(TaskId taskId, RequestId requestId, ApprovalResolution resolution) {
        Task task = require(taskId);
        PendingRequest request = requireRequest(taskId, requestId);
        if (request.kind() != InteractionKind.APPROVAL) {
            throw new ServerFsException(ErrorCode.INVALID_APPROVAL_DECISION, "the request is not an approval");
        }
        Pending pending = livePending(taskId, requestId, request);
        ApprovalRequest approval = (ApprovalRequest) pending.typed;
        InteractionRules.checkApproval(approval, resolution);
        String json = resolution.toJson();
        InteractionRules.requireSize(json, limits);
        store.resolveRequest(taskId, requestId, json, now());
        cancelTimer(pending.timer);
        event(
                taskId,
                EventType.APPROVAL_RESOLVED,
                JsonValue.object().put("decision", resolution.decision().wire()).build());
        if (resolution.decision() == ApprovalDecision.CANCEL_TASK) {
            // v0.7.3 §14.4: the same terminal-first path as cancel_agent_task. The task is terminal before the
            // turn could go on (the waiter fails with AGENT_TASK_TERMINAL): a provider that finished the turn on
            // the decision could otherwise make the task succeeded before this RPC returns.
            cancel(taskId);
        }
        pending.waiter.complete(resolution); // no-op after cancel
        return new InteractionAck(taskId, requestId, task.correlationId());
    }

    InteractionAck answerQuestion(TaskId taskId, RequestId requestId, List<QuestionAnswer> answers) {
        Task task = require(taskId);
        PendingRequest request = requireRequest(taskId, requestId);
        if (request.kind() != InteractionKind.QUESTION) {
            throw new ServerFsException(ErrorCode.INVALID_QUESTION_ANSWER, "the request is not a question");
        }
        Pending pending = livePending(taskId, requestId, request);
        InteractionRules.checkAnswers((QuestionRequest) pending.typed, answers);
        String json = answersJson(answers);
        InteractionRules.requireSize(json, limits);
        store.resolveRequest(taskId, requestId, json, now());
        cancelTimer(pending.timer);
        event(
                taskId,
                EventType.QUESTION_ANSWERED,
                JsonValue.object().put("question_count", answers.size()).build());
        pending.waiter.complete(List.copyOf(answers));
        return new InteractionAck(taskId, requestId, task.correlationId());
    }

    private PendingRequest requireRequest(TaskId taskId, RequestId requestId) {
        PendingRequest request = store.findRequest(requestId)
                .filter(r -> r.taskId().equals(taskId))
                .orElseThrow(() -> new ServerFsException(ErrorCode.REQUEST_NOT_FOUND, "unknown request"));
        switch (request.status()) {
            case PENDING -> {}
            case RESOLVED ->
                throw new ServerFsException(ErrorCode.REQUEST_ALREADY_RESOLVED, "the request was already resolved");
            case STALE -> throw stale();
        }
        return request;
    }

    /** The live waiter for the request; an expired request interrupts the task first (reference §3.6). */
    private Pending livePending(TaskId taskId, RequestId requestId, PendingRequest request) {
        LiveRun run = live.get(taskId);
        if (request.expiredAt(now())) {
            if (run != null) {
                onInteractionExpired(run, requestId, request.kind());
            } else {
                terminate(
                        taskId,
                        t -> t.pendingRequestId().equals(Optional.of(requestId))
                                ? t.interrupted(
                                        ErrorCode.AGENT_INTERACTION_TIMED_OUT, "the interaction timed out", now())
                                : t);
            }
            throw stale();
        }
        Pending pending = run == null ? null : run.pending;
        if (pending == null || !pending.id.equals(requestId)) {
            throw stale();
        }
        return pending;
    }

    private static String answersJson(List<QuestionAnswer> answers) {
        return CanonicalJson.write(JsonValue.object()
                .put(
                        "answers",
                        JsonValue.arrayOf(answers.stream()
                                .map(a -> JsonValue.object()
                                        .put("question_id", a.questionId())
                                        .put("selected_option_ids", JsonValue.stringsOf(a.selectedOptionIds()))
                                        .put("text", a.text())
                                        .build())
                                .toList()))
                .build());
    }

    // ----------------------------------------------------------------------------------------- messages

    MessageAck sendMessage(TaskId id, String message) {
        int bytes = message.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > limits.maxMessageBytes()) {
            throw new ServerFsException(ErrorCode.AGENT_MESSAGE_TOO_LARGE, "message is too large");
        }
        Task task = require(id);
        if (task.isTerminal()) {
            throw new ServerFsException(
                    ErrorCode.AGENT_TASK_TERMINAL, "the task has ended; submit a continuation instead");
        }
        LiveRun run = live.get(id);
        if (task.status() == TaskStatus.QUEUED || run == null) {
            throw new ServerFsException(ErrorCode.AGENT_TASK_NOT_ACTIVE, "the task is not active");
        }
        run.runtime.steer(id, message);
        event(id, EventType.USER_MESSAGE, JsonValue.object().put("bytes", bytes).build());
        return new MessageAck(id, task.correlationId());
    }

    // ------------------------------------------------------------------------------ GC and reconciliation

    /** Deletes terminal tasks past retention as units (spool first); never a task a guard still names. */
    public void gc() {
        Instant cutoff = now().minus(limits.retention());
        for (TaskId id : store.terminalCompletedBefore(cutoff)) {
            Optional<Task> task = store.find(id);
            if (task.isEmpty() || namedByGuard(task.get())) {
                continue;
            }
            try {
                spool.delete(id);
                store.deleteTerminal(id);
            } catch (ServerFsException ignored) {
                // retried at the next GC
            }
        }
    }

    private boolean namedByGuard(Task task) {
        try {
            return leases.readGuard(task.workdirSlot())
                    .map(g -> g.taskId().equals(task.id()))
                    .orElse(false);
        } catch (ServerFsException e) {
            return true;
        }
    }

    /**
     * Start-up reconciliation (reference §6.3): every non-terminal task left by a previous process is interrupted
     * ({@code AGENT_TASK_TIMED_OUT} past its deadline, else {@code BRIDGE_RESTARTED}); guards are removed only with
     * proof that the provider stopped. Then leftover guards are reconciled lazily. Never re-runs a task.
     */
    public void recoverAtStartup() {
        gc();
        for (Task task : store.list(false)) {
            if (live.containsKey(task.id())) {
                continue;
            }
            event(
                    task.id(),
                    EventType.RUNTIME_RECONCILE_STARTED,
                    JsonValue.object().put("runtime", task.runtime()).build());
            Optional<RecoveryGuard> guard = guardNaming(task);
            ReconcileResult result = reconcileWithRuntime(task, guard);
            ProviderState state = provenState(Optional.of(task), guard);
            event(
                    task.id(),
                    EventType.RUNTIME_RECONCILE_FINISHED,
                    JsonValue.object()
                            .put("runtime", task.runtime())
                            .put("status", result.status().name())
                            .put("provider_active", providerActive(state))
                            .build());
            ErrorCode code =
                    now().isBefore(task.deadlineAt()) ? ErrorCode.BRIDGE_RESTARTED : ErrorCode.AGENT_TASK_TIMED_OUT;
            Optional<Task> ended = terminate(task.id(), t -> t.interrupted(code, "the Agent service restarted", now()));
            ended.ifPresent(t -> event(
                    task.id(),
                    EventType.TASK_RECONCILED,
                    JsonValue.object()
                            .put("status", t.status().wire())
                            .put("provider_active", providerActive(state))
                            .put("error_code", code.wire())
                            .build()));
        }
        for (Workdir w : workdirs.all()) {
            try {
                reconcileSlot(w.slot());
            } catch (ServerFsException ignored) {
                // errors are ignored here: the slot stays fail-closed
            }
        }
    }

    /**
     * Lazy reconciliation of one slot's guard (v0.7.2/v0.7.3): removes it only with proof the provider stopped,
     * first interrupting its still non-terminal task with {@code AGENT_PROVIDER_INACTIVE}. Returns true when the
     * slot has no guard afterwards. A guard of a task whose runner still runs is left alone; a busy slot throws
     * {@code WORKDIR_BUSY}.
     */
    @Override
    public boolean reconcileSlot(int slot) {
        Optional<RecoveryGuard> guard = leases.readGuard(slot);
        if (guard.isEmpty()) {
            return true;
        }
        if (live.containsKey(guard.get().taskId())) {
            return false;
        }
        try (WriterLease lease = leases.acquire(slot)) {
            Optional<RecoveryGuard> again = leases.readGuard(slot);
            return again.isEmpty() || recoverGuard(lease, again.get());
        }
    }

    private boolean recoverGuard(WriterLease lease, RecoveryGuard guard) {
        if (live.containsKey(guard.taskId())) {
            return false;
        }
        Optional<Task> task = store.find(guard.taskId());
        ProviderState state = provenState(task, Optional.of(guard));
        if (!RecoveryPolicy.mayRemoveGuard(state)) {
            return false;
        }
        if (task.isPresent() && !task.get().isTerminal()) {
            terminate(
                            guard.taskId(),
                            t -> t.interrupted(
                                    ErrorCode.AGENT_PROVIDER_INACTIVE,
                                    "provider is no longer active during recovery",
                                    now()))
                    .ifPresent(t -> event(
                            t.id(),
                            EventType.TASK_INTERRUPTED,
                            JsonValue.object()
                                    .put("error_code", ErrorCode.AGENT_PROVIDER_INACTIVE.wire())
                                    .build()));
        }
        return lease.removeGuard(guard.taskId());
    }

    private Optional<RecoveryGuard> guardNaming(Task task) {
        if (!task.profile().holdsWriterLease()) {
            return Optional.empty();
        }
        try {
            return leases.readGuard(task.workdirSlot()).filter(g -> g.taskId().equals(task.id()));
        } catch (ServerFsException e) {
            return Optional.empty();
        }
    }

    private ReconcileResult reconcileWithRuntime(Task task, Optional<RecoveryGuard> guard) {
        AgentRuntime runtime = runtimes.get(task.runtime());
        if (runtime == null) {
            return ReconcileResult.unknown("runtime not configured");
        }
        try {
            return runtime.reconcile(task, guard.flatMap(RecoveryGuard::provider));
        } catch (RuntimeException e) {
            return ReconcileResult.unknown("reconcile failed");
        }
    }

    /** Combines the runtime's evidence and the recorded process (CONTRACT.md §3.2). */
    private ProviderState provenState(Optional<Task> task, Optional<RecoveryGuard> guard) {
        Optional<ProviderProcess> process = guard.flatMap(RecoveryGuard::provider);
        Optional<ProviderState> processView = process.map(p -> {
            try {
                return leases.providerState(p);
            } catch (RuntimeException e) {
                return ProviderState.UNKNOWN;
            }
        });
        ProviderState runtimeView =
                task.map(t -> reconcileWithRuntime(t, guard).provider()).orElse(ProviderState.UNKNOWN);
        return RecoveryPolicy.combine(runtimeView, processView);
    }

    private static JsonValue providerActive(ProviderState state) {
        Boolean active = state.providerActive();
        return active == null ? JsonValue.JsonNull.INSTANCE : JsonValue.of(active);
    }

    /** Orderly shutdown: every live task is interrupted {@code BRIDGE_SHUTDOWN} with a bounded provider cancel. */
    public void shutdown() {
        for (LiveRun run : List.copyOf(live.values())) {
            run.cancelRequested.set(true);
            terminate(run.id, t -> t.interrupted(ErrorCode.BRIDGE_SHUTDOWN, "the Agent service stopped", now()))
                    .ifPresent(t -> event(
                            run.id,
                            EventType.TASK_INTERRUPTED,
                            JsonValue.object()
                                    .put("error_code", ErrorCode.BRIDGE_SHUTDOWN.wire())
                                    .build()));
            failPending(run, ErrorCode.BRIDGE_SHUTDOWN);
            stopProvider(run);
        }
    }

    // --------------------------------------------------------------------------------------------- helpers

    private Instant now() {
        return Timestamps.truncate(clock.instant());
    }

    Task require(TaskId id) {
        return store.find(id).orElseThrow(() -> new ServerFsException(ErrorCode.AGENT_TASK_NOT_FOUND, "unknown task"));
    }

    /**
     * Applies a terminal transition unless the task is already terminal; returns the new task only when this call
     * made it terminal (the store stales its pending request in the same transaction).
     */
    private Optional<Task> terminate(TaskId id, UnaryOperator<Task> transition) {
        AtomicBoolean changed = new AtomicBoolean();
        Task result = store.update(id, t -> {
            if (t.isTerminal()) {
                return t;
            }
            Task next = transition.apply(t);
            changed.set(next != t);
            return next;
        });
        return changed.get() && result.isTerminal() ? Optional.of(result) : Optional.empty();
    }

    /** Bookkeeping events never fail the operation (reference §3.13: append failures are swallowed). */
    private void event(TaskId id, EventType type, JsonValue.JsonObject payload) {
        String json = CanonicalJson.write(payload);
        if (json.getBytes(StandardCharsets.UTF_8).length > limits.maxEventBytes()) {
            return;
        }
        try {
            store.appendEvent(id, type.wire(), json, now(), limits.maxEventsPerTask());
        } catch (ServerFsException ignored) {
            // AGENT_EVENT_LIMIT_REACHED or a vanished task: evidence is best-effort
        }
    }

    private static String hostRoot(Workdir workdir) {
        String root = workdir.root().toString();
        return root.endsWith("/") && root.length() > 1 ? root.substring(0, root.length() - 1) : root;
    }

    private static void cancelTimer(Timers.Timer timer) {
        if (timer != null) {
            timer.cancel();
        }
    }

    private static void closeQuietly(WriterLease lease) {
        if (lease != null) {
            lease.close();
        }
    }

    private static ServerFsException stale() {
        return new ServerFsException(ErrorCode.REQUEST_STALE, "the request is stale");
    }

    private static ServerFsException terminal() {
        return new ServerFsException(ErrorCode.AGENT_TASK_TERMINAL, "the task is no longer active");
    }

    private static String twoDigits(int slot) {
        return String.format("%02d", slot);
    }

    // ------------------------------------------------------------------------------------ per-task state

    /** In-process state of one task whose runner has not finished cleanup. */
    private static final class LiveRun {
        final TaskId id;
        final Workdir workdir;
        final AgentRuntime runtime;
        final WriterLease lease;
        final AtomicBoolean cancelRequested = new AtomicBoolean();
        final AtomicBoolean providerCancelAttempted = new AtomicBoolean();
        final CountDownLatch drained = new CountDownLatch(1);
        /** The runner while it is inside the provider turn; guarded by this run's monitor. */
        Thread turnThread;
        /** A stop was requested; guarded by this run's monitor. */
        boolean stopRequested;

        volatile Pending pending;
        volatile Timers.Timer deadlineTimer;
        volatile RecoveryGuard guard;

        LiveRun(Task task, Workdir workdir, AgentRuntime runtime, WriterLease lease) {
            this.id = task.id();
            this.workdir = workdir;
            this.runtime = runtime;
            this.lease = lease;
        }
    }

    /** One pending interaction with its waiter and its single timer (v0.7.3 §5). */
    private static final class Pending {
        final RequestId id;
        final Object typed;
        final CompletableFuture<Object> waiter = new CompletableFuture<>();
        volatile Timers.Timer timer;

        Pending(RequestId id, Object typed) {
            this.id = id;
            this.typed = typed;
        }
    }

    /** The callbacks a runtime uses while its turn runs. */
    private final class Context implements RunContext {
        private final LiveRun run;

        Context(LiveRun run) {
            this.run = run;
        }

        @Override
        public void event(String eventType, JsonValue.JsonObject payload) {
            JsonValue.JsonObject redacted = EventRedaction.redact(payload, hostRoot(run.workdir));
            String json = CanonicalJson.write(redacted);
            if (json.getBytes(StandardCharsets.UTF_8).length > limits.maxEventBytes()) {
                return;
            }
            try {
                store.appendEvent(run.id, eventType, json, now(), limits.maxEventsPerTask());
            } catch (ServerFsException ignored) {
                // provider evidence is best-effort
            }
        }

        @Override
        public void nativeIds(NativeIds nativeIds) {
            recordNativeIds(run, nativeIds);
        }

        @Override
        public void providerStarted(ProviderProcess process) {
            RecoveryGuard guard = run.guard;
            if (run.lease != null && guard != null) {
                RecoveryGuard next = guard.withProvider(process, now());
                run.lease.replaceGuard(next);
                run.guard = next;
            }
        }

        @Override
        public ApprovalResolution requestApproval(ApprovalRequest request) {
            JsonValue.JsonObject payload = EventRedaction.redact(request.toPayload(), hostRoot(run.workdir));
            return (ApprovalResolution) await(InteractionKind.APPROVAL, payload, request);
        }

        @Override
        @SuppressWarnings("unchecked")
        public List<QuestionAnswer> askQuestion(QuestionRequest request) {
            JsonValue.JsonObject payload = EventRedaction.redact(request.toPayload(), hostRoot(run.workdir));
            return (List<QuestionAnswer>) await(InteractionKind.QUESTION, payload, request);
        }

        @Override
        public void abandonPendingRequest() {
            Pending pending = run.pending;
            if (pending == null) {
                return;
            }
            store.abandonRequest(run.id, pending.id, now());
            cancelTimer(pending.timer);
            TaskLifecycle.this.event(
                    run.id,
                    EventType.INTERACTION_STALE,
                    JsonValue.object().put("request_id", pending.id.value()).build());
            pending.waiter.completeExceptionally(stale());
        }

        private Object await(InteractionKind kind, JsonValue.JsonObject payload, Object typed) {
            String json = CanonicalJson.write(payload);
            InteractionRules.requireSize(json, limits);
            Task task = require(run.id);
            Instant now = now();
            Instant expires = InteractionRules.expiresAt(task.deadlineAt(), now, limits);
            if (!expires.isAfter(now)) {
                throw new ServerFsException(ErrorCode.AGENT_INTERACTION_EXPIRED, "the interaction already expired");
            }
            RequestId requestId = ids.newRequestId();
            Pending pending = new Pending(requestId, typed);
            run.pending = pending;
            try {
                // The timer exists before the request becomes visible: every pending request has its timer.
                pending.timer = timers.schedule(expires, () -> onInteractionExpired(run, requestId, kind));
                store.openRequest(PendingRequest.open(requestId, run.id, kind, json, now, expires));
                TaskLifecycle.this.event(
                        run.id,
                        kind == InteractionKind.APPROVAL ? EventType.APPROVAL_REQUESTED : EventType.QUESTION_REQUESTED,
                        JsonValue.object()
                                .put("request_id", requestId.value())
                                .put("expires_at", Timestamps.format(expires))
                                .build());
                return pending.waiter.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw terminal();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof ServerFsException s) {
                    throw s;
                }
                throw terminal();
            } finally {
                cancelTimer(pending.timer);
                if (run.pending == pending) {
                    run.pending = null;
                }
            }
        }
    }
}
