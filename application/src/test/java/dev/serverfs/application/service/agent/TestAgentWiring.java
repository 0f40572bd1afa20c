package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.IdGenerator;
import dev.serverfs.application.port.out.ResultSpool;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.application.port.out.Timers;
import dev.serverfs.application.port.out.WorkingDirectories;
import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.domain.workdir.Workdirs;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The Agent service as bootstrap's {@code AgentServiceWiring} builds it, for tests of the application and of the
 * adapters that cannot depend on bootstrap; keep the two in step.
 */
public final class TestAgentWiring {

    private TestAgentWiring() {}

    /** The Agent service over these ports and settings, not yet reconciled. */
    public static AgentService agentService(
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
            AgentService.Settings settings) {
        Objects.requireNonNull(workdirs, "workdirs");
        Objects.requireNonNull(directories, "directories");
        Objects.requireNonNull(runtimes, "runtimes");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(spool, "spool");
        Objects.requireNonNull(leases, "leases");
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(timers, "timers");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(runners, "runners");
        Objects.requireNonNull(settings, "settings");
        LiveRuns live = new LiveRuns();
        AgentRuntimes byName = new AgentRuntimes(runtimes);
        TaskRecords records = new TaskRecords(store, clock, settings.limits());
        TaskReconciliation reconciliation = new TaskReconciliation(workdirs, byName, records, spool, leases, live);
        TaskStopping stopping = new TaskStopping(records, live, reconciliation, settings.providerCancelBound());
        TaskInteractions interactions = new TaskInteractions(records, live, stopping, ids, timers);
        TaskRunner runner =
                new TaskRunner(records, live, spool, reconciliation, interactions, settings.hostDirectories());
        TaskSubmission submission = new TaskSubmission(
                workdirs,
                directories,
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
        AgentUseCases useCases = new AgentUseCases(
                new ListAgentRuntimesService(workdirs, byName),
                submission,
                new GetAgentTaskService(records),
                new ReadAgentTaskEventsService(records),
                new ReadAgentTaskResultService(records, spool),
                interactions,
                interactions,
                interactions,
                stopping);
        return new AgentService(live, reconciliation, stopping, useCases);
    }
}
