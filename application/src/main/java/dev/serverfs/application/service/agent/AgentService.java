package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.IdGenerator;
import dev.serverfs.application.port.out.ResultSpool;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.application.port.out.Timers;
import dev.serverfs.application.port.out.WorkingDirectories;
import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.application.service.SlotRecovery;
import dev.serverfs.domain.task.AgentLimits;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.workdir.Workdirs;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The Agent service (reference §4.3, v0.7.3 plan) hosted in this process: wires the capabilities over one {@link
 * LiveRuns} holder and offers the nine Agent use cases ({@link #useCases}), start-up reconciliation, lazy slot
 * reconciliation (the {@link SlotRecovery} mutations use) and orderly shutdown. The writer lease is released only
 * by a runner's cleanup, after the runtime returned; a recovery guard is removed only with proof that the
 * provider stopped.
 */
public final class AgentService implements SlotRecovery {

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

    private final LiveRuns live = new LiveRuns();
    private final TaskReconciliation reconciliation;
    private final TaskStopping stopping;
    private final AgentUseCases useCases;

    public AgentService(
            Workdirs workdirs,
            WorkingDirectories directories,
            List<AgentRuntime> runtimes,
            TaskStore store,
            ResultSpool spool,
            WriterLeases leases,
            IdGenerator ids,
            Timers timers,
            Clock clock,
            Executor runners,
            Settings settings) {
        Objects.requireNonNull(workdirs, "workdirs");
        Objects.requireNonNull(spool, "spool");
        Objects.requireNonNull(leases, "leases");
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(timers, "timers");
        Objects.requireNonNull(runners, "runners");
        Objects.requireNonNull(settings, "settings");
        AgentRuntimes byName = new AgentRuntimes(runtimes);
        TaskRecords records = new TaskRecords(
                Objects.requireNonNull(store, "store"), Objects.requireNonNull(clock, "clock"), settings.limits());
        reconciliation = new TaskReconciliation(workdirs, byName, records, spool, leases, live);
        stopping = new TaskStopping(records, live, reconciliation, settings.providerCancelBound());
        TaskInteractions interactions = new TaskInteractions(records, live, stopping, ids, timers);
        TaskRunner runner = new TaskRunner(records, live, spool, reconciliation, interactions);
        TaskSubmission submission = new TaskSubmission(
                workdirs,
                Objects.requireNonNull(directories, "directories"),
                byName,
                records,
                live,
                reconciliation,
                runner,
                stopping,
                ids,
                timers,
                runners,
                settings.bridgeVersion());
        useCases = new AgentUseCases(
                new ListAgentRuntimesService(workdirs, byName),
                submission,
                new GetAgentTaskService(records),
                new ReadAgentTaskEventsService(records),
                new ReadAgentTaskResultService(records, spool),
                interactions,
                interactions,
                interactions,
                stopping);
    }

    /** The nine Agent use cases of this service. */
    public AgentUseCases useCases() {
        return useCases;
    }

    /** True while the task's runner has not finished its cleanup (lease still held if it had one). */
    public boolean isLive(TaskId id) {
        return live.contains(id);
    }

    /** Waits until the task's runner finished its cleanup; true if it did within the timeout. */
    public boolean awaitDrained(TaskId id, Duration timeout) throws InterruptedException {
        return live.awaitDrained(id, timeout);
    }

    /**
     * Start-up reconciliation (reference §6.3): tasks a previous process left are interrupted, their guards removed
     * only with proof that the provider stopped, then expired tasks are collected. Never re-runs a task.
     */
    public void recoverAtStartup() {
        reconciliation.recoverAtStartup();
    }

    @Override
    public boolean reconcileSlot(int slot) {
        return reconciliation.reconcileSlot(slot);
    }

    /** Orderly shutdown: every live task is interrupted {@code BRIDGE_SHUTDOWN} with a bounded provider cancel. */
    public void shutdown() {
        stopping.shutdown();
    }
}
