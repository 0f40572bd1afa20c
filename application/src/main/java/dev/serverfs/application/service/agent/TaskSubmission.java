package dev.serverfs.application.service.agent;

import static dev.serverfs.application.service.agent.TaskStopping.cancelTimer;

import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import dev.serverfs.application.port.in.TaskHandle;
import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.HeldDirectory;
import dev.serverfs.application.port.out.IdGenerator;
import dev.serverfs.application.port.out.InsertOutcome;
import dev.serverfs.application.port.out.ProviderView;
import dev.serverfs.application.port.out.Timers;
import dev.serverfs.application.port.out.TurnRequest;
import dev.serverfs.application.port.out.WorkingDirectories;
import dev.serverfs.application.port.out.WriterLeases.WriterLease;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.AgentAccessPolicy;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.ExecutionManifest;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.SubmissionFingerprint;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@code submit_agent_task} (reference §3.2, §4.3 Submit, v0.7.3 §3): the idempotent look-up first, then the
 * access policy once, the path policy and the held starting directory, validation, continuation and probe; under
 * the submit lock the second look-up, the writer lease (workspace-write), the task row (the store's unique index is
 * the last guard), the recovery guard, the deadline timer and the runner. Returns {@code queued} at once; a
 * scheduling failure interrupts the task {@code BRIDGE_SCHEDULING_FAILED}. The held directory goes with the run and
 * is released by its cleanup.
 */
public final class TaskSubmission implements SubmitAgentTaskUseCase {
    /**
     * Each concealed entry is one mount in the child's view (issue 25), and up to six of bubblewrap's arguments, of
     * which it takes 9,000 at most in all: 1,024 entries leave room for the rest of the view.
     */
    public static final int MAX_CONCEALED_ENTRIES = 1024;

    private final Workdirs workdirs;
    private final WorkingDirectories directories;
    private final AgentRuntimes runtimes;
    private final TaskRecords records;
    private final LiveRuns live;
    private final TaskReconciliation reconciliation;
    private final TaskRunner runner;
    private final TaskStopping stopping;
    private final IdGenerator ids;
    private final Timers timers;
    private final Executor runners;
    private final String bridgeVersion;

    private final ReentrantLock submitLock = new ReentrantLock();

    public TaskSubmission(
            Workdirs workdirs,
            WorkingDirectories directories,
            AgentRuntimes runtimes,
            TaskRecords records,
            LiveRuns live,
            TaskReconciliation reconciliation,
            TaskRunner runner,
            TaskStopping stopping,
            IdGenerator ids,
            Timers timers,
            Executor runners,
            String bridgeVersion) {
        this.workdirs = workdirs;
        this.directories = directories;
        this.runtimes = runtimes;
        this.records = records;
        this.live = live;
        this.reconciliation = reconciliation;
        this.runner = runner;
        this.stopping = stopping;
        this.ids = ids;
        this.timers = timers;
        this.runners = runners;
        this.bridgeVersion = bridgeVersion;
    }

    @Override
    public Submission submit(SubmitAgentTaskCommand c) {
        // v0.7.3 §3.3 (issue 10 item 11): a retry is looked up first, by its normalised inputs only — before any
        // authorisation, filesystem access or lease — so a retry whose directory went away still finds its task. GC
        // runs first (reference §4.3): a key whose task retention collected is free again.
        reconciliation.gc();
        Optional<String> fingerprint = fingerprint(c);
        // a fingerprint exists only for a valid key
        Optional<Submission> replay = replay(c.idempotencyKey().valid().flatMap(key -> key), fingerprint);
        if (replay.isPresent()) {
            return replay.get();
        }
        AgentAccessPolicy.Grant grant = AgentAccessPolicy.authorize(workdirs, c.workdir(), c.runtime(), c.profile());
        WorkdirPath cwd = PathPolicy.of(grant.workdir()).resolve(c.path());
        HeldDirectory directory = directories.hold(grant.workdir(), cwd);
        Submission submission;
        try {
            submission = submit(c, grant, cwd, directory, fingerprint);
        } catch (RuntimeException e) {
            directory.close();
            throw e;
        }
        if (!(submission instanceof Submission.Created)) {
            directory.close();
        }
        return submission;
    }

    /**
     * The v0.7.3 §3.2 fingerprint of a keyed submit over its normalised inputs. Empty without a key, or when an
     * input is invalid: no retained task can match it, and the checks after the look-up refuse it in their order.
     */
    private static Optional<String> fingerprint(SubmitAgentTaskCommand c) {
        Optional<RuntimeName> runtime = c.runtime().valid();
        Optional<TaskProfile> profile = c.profile().valid();
        Optional<WorkdirPath> path = PathPolicy.normalised(c.path());
        Optional<Optional<CorrelationId>> correlationId = c.correlationId().valid();
        boolean keyed = c.idempotencyKey().valid().flatMap(key -> key).isPresent();
        if (!keyed || runtime.isEmpty() || profile.isEmpty() || path.isEmpty() || correlationId.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(SubmissionFingerprint.of(
                runtime.get(),
                c.workdir(),
                path.get().display(),
                profile.get(),
                c.prompt(),
                c.continueFromTaskId(),
                correlationId.get()));
    }

    /** Authorised, in a held directory: validation, continuation, probe, then lease, row and runner under the lock. */
    private Submission submit(
            SubmitAgentTaskCommand c,
            AgentAccessPolicy.Grant grant,
            WorkdirPath cwd,
            HeldDirectory directory,
            Optional<String> fingerprint) {
        // authorised, so the runtime is a known one; the caller's strings are checked here (reference §4.3)
        RuntimeName name = c.runtime().get();
        Optional<CorrelationId> correlationId = c.correlationId().get();
        Optional<IdempotencyKey> key = c.idempotencyKey().get();
        if (c.prompt().getBytes(StandardCharsets.UTF_8).length
                > records.limits().maxPromptBytes()) {
            throw new ServerFsException(ErrorCode.AGENT_PROMPT_TOO_LARGE, "prompt is too large");
        }
        Workdir workdir = grant.workdir();
        TaskProfile profile = grant.profile();
        if (c.continueFromTaskId().isPresent()) {
            checkContinuation(c.continueFromTaskId().get(), name, workdir, profile);
        }
        RuntimeInfo info = runtimes.probe(name);
        if (!info.available()) {
            throw new ServerFsException(ErrorCode.AGENT_RUNTIME_UNAVAILABLE, name.wire() + " is unavailable");
        }
        String path = cwd.display();
        Instant now = records.now();
        Instant deadline = now.plus(records.limits().taskTimeout());
        ExecutionManifest manifest = new ExecutionManifest(
                bridgeVersion,
                info,
                workdir.alias().value(),
                workdir.slot(),
                path,
                profile,
                !workdir.readWrite(),
                workdir.policy().agentMode(),
                workdir.policy().agentRuntimes(),
                records.limits(),
                c.continueFromTaskId(),
                correlationId,
                key,
                deadline);
        Task task = Task.queued(
                ids.newTaskId(),
                name,
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
                c.continueFromTaskId().flatMap(records.store()::find).map(Task::nativeIds);
        TurnRequest turn = new TurnRequest(
                task.id(),
                c.prompt(),
                directory.path(),
                view(workdir, directory, profile),
                profile,
                resumeFrom,
                deadline);
        AgentRuntime runtime = runtimes.find(name).orElseThrow();

        submitLock.lock();
        try {
            // v0.7.3 §3.3 step 6: look again under the submit lock so concurrent retries converge.
            Optional<Submission> replay = replay(key, fingerprint);
            if (replay.isPresent()) {
                return replay.get();
            }
            return create(task, workdir, runtime, directory, turn, fingerprint, now);
        } finally {
            submitLock.unlock();
        }
    }

    /**
     * What the task's provider may see (issue 25): the workdir (the root {@code directory} was opened beneath, held
     * with it), writable only for {@code workspace-write}, with its deny-listed entries concealed. Found before the
     * lease and the row, so a workdir that cannot be viewed fails the submit and changes nothing.
     */
    private ProviderView view(Workdir workdir, HeldDirectory directory, TaskProfile profile) {
        return new ProviderView(
                workdir.root(),
                directory.root(),
                profile.holdsWriterLease(),
                directories.deniedEntries(workdir, MAX_CONCEALED_ENTRIES));
    }

    /** Under the submit lock: lease, row, guard, deadline timer, runner. */
    private Submission create(
            Task task,
            Workdir workdir,
            AgentRuntime runtime,
            HeldDirectory directory,
            TurnRequest turn,
            Optional<String> fingerprint,
            Instant now) {
        WriterLease lease = task.profile().holdsWriterLease() ? reconciliation.acquireForTask(workdir.slot()) : null;
        Task created;
        try {
            InsertOutcome outcome =
                    records.store().insert(task, records.limits().maxActiveTasks());
            if (outcome instanceof InsertOutcome.Existing existing) {
                closeQuietly(lease);
                return replayOf(existing.task(), fingerprint);
            }
            created = outcome.task();
        } catch (RuntimeException e) {
            closeQuietly(lease);
            throw e;
        }
        LiveRun run = new LiveRun(created, workdir, runtime, lease, directory);
        live.add(run);
        try {
            if (lease != null) {
                lease.publishGuard(RecoveryGuard.forTask(created, now));
                run.guard = RecoveryGuard.forTask(created, now);
            }
            run.deadlineTimer = timers.schedule(created.deadlineAt(), () -> stopping.onDeadline(run));
            runners.execute(() -> runner.run(run, turn));
        } catch (ServerFsException | RejectedExecutionException e) {
            schedulingFailed(run);
            throw new ServerFsException(ErrorCode.BRIDGE_SCHEDULING_FAILED, "the task could not be scheduled");
        }
        return new Submission.Created(TaskHandle.of(created));
    }

    private Optional<Submission> replay(Optional<IdempotencyKey> key, Optional<String> fingerprint) {
        if (key.isEmpty() || fingerprint.isEmpty()) {
            return Optional.empty();
        }
        return records.store().findByIdempotencyKey(key.get()).map(existing -> replayOf(existing, fingerprint));
    }

    private static Submission replayOf(Task existing, Optional<String> fingerprint) {
        if (!existing.requestFingerprint().equals(fingerprint)) {
            throw new ServerFsException(
                    ErrorCode.AGENT_IDEMPOTENCY_CONFLICT,
                    "idempotency_key was already used for a different submission");
        }
        return new Submission.Replayed(TaskHandle.of(existing));
    }

    private void checkContinuation(TaskId from, RuntimeName runtime, Workdir workdir, TaskProfile profile) {
        Task prior = records.require(from);
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

    private void schedulingFailed(LiveRun run) {
        records.terminate(
                run.id,
                t -> t.interrupted(ErrorCode.BRIDGE_SCHEDULING_FAILED, "task could not be scheduled", records.now()));
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
        run.directory.close();
        run.drained.countDown();
    }

    private static void closeQuietly(WriterLease lease) {
        if (lease != null) {
            lease.close();
        }
    }
}
