package dev.serverfs.bootstrap.agent;

import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.IdGenerator;
import dev.serverfs.application.port.out.ResultSpool;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.application.port.out.Timers;
import dev.serverfs.application.port.out.WorkingDirectories;
import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.application.service.agent.AgentRuntimes;
import dev.serverfs.application.service.agent.AgentService;
import dev.serverfs.application.service.agent.GetAgentTaskService;
import dev.serverfs.application.service.agent.ListAgentRuntimesService;
import dev.serverfs.application.service.agent.LiveRuns;
import dev.serverfs.application.service.agent.ReadAgentTaskEventsService;
import dev.serverfs.application.service.agent.ReadAgentTaskResultService;
import dev.serverfs.application.service.agent.TaskInteractions;
import dev.serverfs.application.service.agent.TaskReconciliation;
import dev.serverfs.application.service.agent.TaskRecords;
import dev.serverfs.application.service.agent.TaskRunner;
import dev.serverfs.application.service.agent.TaskStopping;
import dev.serverfs.application.service.agent.TaskSubmission;
import dev.serverfs.domain.workdir.Workdirs;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The one place the Agent service's capabilities are built: submission, runner, interactions, stopping,
 * reconciliation and the read services over one task-records view, one runtime look-up and one live-run holder.
 */
final class AgentServiceWiring {

    private AgentServiceWiring() {}

    /** The Agent service over these ports and settings, not yet reconciled ({@link AgentService#recoverAtStartup}). */
    static AgentService agentService(
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
