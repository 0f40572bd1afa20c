package dev.serverfs.application.service.agent;

import static dev.serverfs.application.service.agent.TaskStopping.cancelTimer;

import dev.serverfs.application.port.out.ResultSpool;
import dev.serverfs.application.port.out.RunContext;
import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.application.port.out.TurnRequest;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.ApprovalRequest;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.EventRedaction;
import dev.serverfs.domain.task.EventType;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionRequest;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.RecoveryPolicy;
import dev.serverfs.domain.task.ResultPlacement;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskResult;
import dev.serverfs.domain.task.TaskStatus;
import java.util.List;
import java.util.Optional;

/**
 * One runner per task (reference §4.3 Run): {@code queued → starting → running}, one provider turn, result
 * placement (inline, spooled or too large), then cleanup. Errors while waiting interrupt the task, otherwise fail
 * it. Cleanup releases the writer lease only after the runtime returned, and removes the recovery guard only after
 * a clean provider return or a proven stop (v0.7.3 §6).
 */
public final class TaskRunner {
    private final TaskRecords records;
    private final LiveRuns live;
    private final ResultSpool spool;
    private final TaskReconciliation reconciliation;
    private final TaskInteractions interactions;
    /** Host directories redaction hides besides the task's own workdir ({@link AgentService.Settings}). */
    private final List<String> hostDirectories;

    public TaskRunner(
            TaskRecords records,
            LiveRuns live,
            ResultSpool spool,
            TaskReconciliation reconciliation,
            TaskInteractions interactions,
            List<String> hostDirectories) {
        this.records = records;
        this.live = live;
        this.spool = spool;
        this.reconciliation = reconciliation;
        this.interactions = interactions;
        this.hostDirectories = List.copyOf(hostDirectories);
    }

    void run(LiveRun run, TurnRequest turn) {
        // Until the turn starts no provider runs: an early return is itself proof of stop.
        boolean providerStopped = true;
        try {
            if (run.cancelRequested.get()) {
                return;
            }
            Task task = records.store()
                    .update(run.id, t -> t.status() == TaskStatus.QUEUED ? t.starting(records.now()) : t);
            if (task.status() != TaskStatus.STARTING) {
                return;
            }
            records.event(
                    run.id,
                    EventType.TASK_STARTED,
                    JsonValue.object().put("runtime", task.runtime().wire()).build());
            task = records.store()
                    .update(run.id, t -> t.status() == TaskStatus.STARTING ? t.running(records.now()) : t);
            if (task.status() != TaskStatus.RUNNING) {
                return;
            }
            TurnOutcome outcome;
            providerStopped = false;
            run.enterTurn();
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
                run.leaveTurn();
            }
            recordNativeIds(run, outcome.nativeIds());
            complete(run, outcome.finalResponse());
        } catch (RuntimeException e) {
            providerFailed(run, ErrorCode.AGENT_PROVIDER_ERROR, "the task failed");
        } finally {
            cleanup(run, providerStopped);
        }
    }

    private void complete(LiveRun run, String finalResponse) {
        String text = EventRedaction.redactText(finalResponse, run.hostRoot(), hostDirectories);
        switch (ResultPlacement.of(text, records.limits())) {
            case ResultPlacement.Inline inline -> {
                records.terminate(run.id, t -> t.succeeded(inline.result(), records.now()), TaskRunner::completed);
            }
            case ResultPlacement.Spool spooled -> {
                if (records.require(run.id).isTerminal()) {
                    return;
                }
                try {
                    spool.write(run.id, spooled.utf8());
                } catch (ServerFsException e) {
                    providerFailed(run, ErrorCode.AGENT_RESULT_STORAGE_ERROR, "the result could not be stored");
                    return;
                }
                records.event(
                        run.id,
                        EventType.TASK_RESULT_SPOOLED,
                        JsonValue.object()
                                .put("size_bytes", spooled.result().sizeBytes())
                                .put("sha256", spooled.result().sha256())
                                .build());
                if (records.terminate(run.id, t -> t.succeeded(spooled.result(), records.now()), TaskRunner::completed)
                        .isEmpty()) {
                    spool.delete(run.id);
                }
            }
            case ResultPlacement.TooLarge tooLarge ->
                providerFailed(run, ErrorCode.AGENT_RESULT_TOO_LARGE, "the final response exceeds the spool limit");
        }
    }

    /** The {@code task.completed} event of a task that just succeeded. */
    private static TaskRecords.Announcement completed(Task task) {
        TaskResult result = task.result().orElseThrow();
        return new TaskRecords.Announcement(
                EventType.TASK_COMPLETED,
                JsonValue.object()
                        .put("result_storage", result.storage().wire())
                        .put("result_size_bytes", result.sizeBytes())
                        .build());
    }

    /** Reference §4.3 Run: errors while waiting interrupt the task, otherwise fail it. */
    private void providerFailed(LiveRun run, ErrorCode code, String message) {
        records.terminate(
                run.id,
                t -> t.status().isWaiting() || t.status() == TaskStatus.QUEUED
                        ? t.interrupted(code, message, records.now())
                        : t.failed(code, message, records.now()),
                t -> TaskRecords.Announcement.error(
                        t.status() == TaskStatus.FAILED ? EventType.TASK_FAILED : EventType.TASK_INTERRUPTED, code));
    }

    private void cleanup(LiveRun run, boolean providerStopped) {
        Thread.interrupted(); // cleanup I/O must not be aborted by a stray interrupt (e.g. executor shutdownNow)
        PendingInteraction<?> pending = run.pending;
        if (pending != null) {
            cancelTimer(pending.timer);
            pending.fail(TaskRecords.terminal());
        }
        cancelTimer(run.deadlineTimer);
        try {
            Task task = records.store().find(run.id).orElse(null);
            if (task != null && !task.isTerminal()) {
                providerFailed(run, ErrorCode.AGENT_PROVIDER_ERROR, "the task ended without a result");
            }
            if (run.lease != null) {
                // v0.7.3 §6: the guard goes only after a clean provider return (the runtime returns only once its
                // provider is gone) or a proven stop.
                ProviderState state = providerStopped
                        ? ProviderState.STOPPED
                        : reconciliation.provenState(Optional.ofNullable(task), Optional.ofNullable(run.guard));
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
            if (run.lease != null) {
                run.lease.close();
            }
            run.directory.close();
            run.drained.countDown();
            reconciliation.gcQuietly();
        }
    }

    private void recordNativeIds(LiveRun run, NativeIds nativeIds) {
        if (nativeIds.equals(NativeIds.NONE)) {
            return;
        }
        records.store().update(run.id, t -> t.isTerminal() ? t : t.withNativeIds(nativeIds, records.now()));
        RecoveryGuard guard = run.guard;
        if (run.lease != null && guard != null) {
            RecoveryGuard next = guard.withNativeIds(nativeIds, records.now());
            try {
                run.lease.replaceGuard(next);
                run.guard = next;
            } catch (RuntimeException ignored) {
                // the previous guard still names the task: still fail-closed
            }
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
            records.event(run.id, eventType, EventRedaction.redact(payload, run.hostRoot(), hostDirectories));
        }

        @Override
        public void nativeIds(NativeIds nativeIds) {
            recordNativeIds(run, nativeIds);
        }

        @Override
        public void providerStarted(ProviderProcess process) {
            RecoveryGuard guard = run.guard;
            if (run.lease != null && guard != null) {
                RecoveryGuard next = guard.withProvider(process, records.now());
                run.lease.replaceGuard(next);
                run.guard = next;
            }
        }

        @Override
        public ApprovalResolution requestApproval(ApprovalRequest request) {
            JsonValue.JsonObject payload = EventRedaction.redact(request.toPayload(), run.hostRoot(), hostDirectories);
            return interactions.await(run, payload, id -> new PendingInteraction.Approval(id, request));
        }

        @Override
        public List<QuestionAnswer> askQuestion(QuestionRequest request) {
            JsonValue.JsonObject payload = EventRedaction.redact(request.toPayload(), run.hostRoot(), hostDirectories);
            return interactions.await(run, payload, id -> new PendingInteraction.Question(id, request));
        }

        @Override
        public void abandonPendingRequest() {
            interactions.abandon(run);
        }
    }
}
