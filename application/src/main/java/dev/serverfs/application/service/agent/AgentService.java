package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.service.SlotRecovery;
import dev.serverfs.domain.task.AgentLimits;
import dev.serverfs.domain.task.TaskId;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The Agent service (reference §4.3, v0.7.3 plan) hosted in this process: over capabilities that share one {@link
 * LiveRuns} holder (bootstrap builds them), offers the nine Agent use cases ({@link #useCases}), start-up
 * reconciliation, lazy slot reconciliation (the {@link SlotRecovery} mutations use) and orderly shutdown. The writer
 * lease is released only by a runner's cleanup, after the runtime returned; a recovery guard is removed only with
 * proof that the provider stopped.
 */
public final class AgentService implements SlotRecovery {

    /**
     * Service settings: limits frozen into manifests, the provider-cancel bound (10 s), the version string, and the
     * host directories no task's events or result may name besides its own workdir (the serving user's home,
     * ServerFS' own directories, every workdir root: what a provider view's mounts can name), absolute paths.
     */
    public record Settings(
            AgentLimits limits, Duration providerCancelBound, String bridgeVersion, List<String> hostDirectories) {
        public Settings {
            Objects.requireNonNull(limits, "limits");
            Objects.requireNonNull(providerCancelBound, "providerCancelBound");
            Objects.requireNonNull(bridgeVersion, "bridgeVersion");
            hostDirectories = List.copyOf(hostDirectories);
        }

        public static Settings defaults(AgentLimits limits, String bridgeVersion, List<String> hostDirectories) {
            return new Settings(limits, Duration.ofSeconds(10), bridgeVersion, hostDirectories);
        }
    }

    private final LiveRuns live;
    private final TaskReconciliation reconciliation;
    private final TaskStopping stopping;
    private final AgentUseCases useCases;

    /**
     * The service over capabilities bootstrap built around the one {@code live} holder they share: {@code useCases}
     * are the submission, interactions, stopping and read services built over the same records, runtimes and holder.
     */
    public AgentService(
            LiveRuns live, TaskReconciliation reconciliation, TaskStopping stopping, AgentUseCases useCases) {
        this.live = Objects.requireNonNull(live, "live");
        this.reconciliation = Objects.requireNonNull(reconciliation, "reconciliation");
        this.stopping = Objects.requireNonNull(stopping, "stopping");
        this.useCases = Objects.requireNonNull(useCases, "useCases");
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
