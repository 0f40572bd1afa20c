package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.in.CancelAgentTaskUseCase;
import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.Timers;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.EventType;
import dev.serverfs.domain.task.InteractionKind;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Every way a task is stopped from outside its turn (reference §3.9, v0.7.3 §6.2, §14): cancel (terminal first,
 * repeat-safe), the task deadline, an interaction timeout and shutdown. Each persists the terminal state first,
 * fails the pending interaction, then makes one bounded provider cancel and interrupts the turn; the lease and
 * the guard are left to the runner's cleanup.
 */
public final class TaskStopping implements CancelAgentTaskUseCase {
    private final TaskRecords records;
    private final LiveRuns live;
    private final TaskReconciliation reconciliation;
    private final Duration providerCancelBound;

    public TaskStopping(
            TaskRecords records, LiveRuns live, TaskReconciliation reconciliation, Duration providerCancelBound) {
        this.records = records;
        this.live = live;
        this.reconciliation = reconciliation;
        this.providerCancelBound = providerCancelBound;
    }

    @Override
    public CancelOutcome cancel(TaskId id) {
        Task task = records.require(id);
        if (task.isTerminal()) {
            return new CancelOutcome(id, task.status(), task.correlationId());
        }
        Optional<LiveRun> run = live.find(id);
        run.ifPresent(r -> r.cancelRequested.set(true));
        // v0.7.3 §14.1: persist cancelled (pending request → stale) before returning.
        Optional<Task> ended = records.terminate(
                id,
                t -> t.cancelled(records.now()),
                t -> new TaskRecords.Announcement(
                        EventType.TASK_CANCELLED, JsonValue.object().build()));
        run.ifPresent(r -> {
            failPending(r, ErrorCode.AGENT_TASK_TERMINAL);
            stopProvider(r);
        });
        reconciliation.gcQuietly();
        Task current = ended.orElseGet(() -> records.require(id));
        return new CancelOutcome(id, current.status(), current.correlationId());
    }

    /**
     * The task deadline passed (reference §4.3): interrupted {@code AGENT_TASK_TIMED_OUT}. An interaction still pending
     * then is due too (its expiry is never past the deadline), and v0.7.3 §5 ends a task whose interaction is pending
     * at its expiry {@code AGENT_INTERACTION_TIMED_OUT}: so it does here, whichever of the two timers fires first.
     */
    void onDeadline(LiveRun run) {
        PendingInteraction<?> pending = run.pending;
        if (pending != null) {
            onInteractionExpired(run, pending.id, pending.kind());
        }
        Optional<Task> ended = records.terminate(
                run.id,
                t -> t.interrupted(ErrorCode.AGENT_TASK_TIMED_OUT, "the task deadline passed", records.now()),
                t -> TaskRecords.Announcement.error(EventType.TASK_INTERRUPTED, ErrorCode.AGENT_TASK_TIMED_OUT));
        if (ended.isPresent()) {
            failPending(run, ErrorCode.AGENT_TASK_TIMED_OUT);
            stopProvider(run);
        }
    }

    /** The interaction's timer fired (v0.7.3 §5): interrupted {@code AGENT_INTERACTION_TIMED_OUT}. */
    void onInteractionExpired(LiveRun run, RequestId requestId, InteractionKind kind) {
        Optional<Task> ended = expire(
                run.id,
                requestId,
                List.of(
                        new TaskRecords.Announcement(
                                EventType.INTERACTION_EXPIRED,
                                JsonValue.object()
                                        .put("request_id", requestId.value())
                                        .put("kind", kind.wire())
                                        .build()),
                        TaskRecords.Announcement.error(
                                EventType.TASK_INTERRUPTED, ErrorCode.AGENT_INTERACTION_TIMED_OUT)));
        if (ended.isPresent()) {
            failPending(run, ErrorCode.AGENT_INTERACTION_TIMED_OUT);
            stopProvider(run);
        }
    }

    /** Interrupts the task for its expired request if that request is still the pending one. */
    Optional<Task> expire(TaskId id, RequestId requestId) {
        return expire(id, requestId, List.of());
    }

    /** {@link #expire(TaskId, RequestId)} with the events that announce it, in the same transaction. */
    private Optional<Task> expire(TaskId id, RequestId requestId, List<TaskRecords.Announcement> announcements) {
        return records.terminate(
                id,
                t -> t.pendingRequestId().equals(Optional.of(requestId))
                        ? t.interrupted(
                                ErrorCode.AGENT_INTERACTION_TIMED_OUT, "the interaction timed out", records.now())
                        : t,
                announcements);
    }

    /** Orderly shutdown: every live task is interrupted {@code BRIDGE_SHUTDOWN} with a bounded provider cancel. */
    void shutdown() {
        for (LiveRun run : live.snapshot()) {
            run.cancelRequested.set(true);
            records.terminate(
                    run.id,
                    t -> t.interrupted(ErrorCode.BRIDGE_SHUTDOWN, "the Agent service stopped", records.now()),
                    t -> TaskRecords.Announcement.error(EventType.TASK_INTERRUPTED, ErrorCode.BRIDGE_SHUTDOWN));
            failPending(run, ErrorCode.BRIDGE_SHUTDOWN);
            stopProvider(run);
        }
    }

    private static void failPending(LiveRun run, ErrorCode code) {
        PendingInteraction<?> pending = run.pending;
        if (pending != null) {
            cancelTimer(pending.timer);
            pending.fail(new ServerFsException(code, "the interaction ended"));
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
        run.requestStop();
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
            cancel.get(providerCancelBound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // v0.7.3 §14.3: a stalled or failed interrupt never blocks cleanup; the guard still needs proof.
        }
    }

    static void cancelTimer(Timers.Timer timer) {
        if (timer != null) {
            timer.cancel();
        }
    }
}
