package dev.serverfs.bootstrap.agent;

import dev.serverfs.adapters.fake.FakeAgentRuntime;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.tools.agent.AnswerAgentQuestionTool;
import dev.serverfs.adapters.mcp.tools.agent.CancelAgentTaskTool;
import dev.serverfs.adapters.mcp.tools.agent.GetAgentTaskTool;
import dev.serverfs.adapters.mcp.tools.agent.ListAgentRuntimesTool;
import dev.serverfs.adapters.mcp.tools.agent.ReadAgentTaskEventsTool;
import dev.serverfs.adapters.mcp.tools.agent.ReadAgentTaskResultTool;
import dev.serverfs.adapters.mcp.tools.agent.RespondAgentApprovalTool;
import dev.serverfs.adapters.mcp.tools.agent.SendAgentMessageTool;
import dev.serverfs.adapters.mcp.tools.agent.SubmitAgentTaskTool;
import dev.serverfs.adapters.sqlite.FileResultSpool;
import dev.serverfs.adapters.sqlite.SqliteTaskStores;
import dev.serverfs.application.port.in.AnswerAgentQuestionUseCase;
import dev.serverfs.application.port.in.CancelAgentTaskUseCase;
import dev.serverfs.application.port.in.GetAgentTaskUseCase;
import dev.serverfs.application.port.in.ListAgentRuntimesUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase;
import dev.serverfs.application.port.in.RespondAgentApprovalUseCase;
import dev.serverfs.application.port.in.SendAgentMessageUseCase;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.application.service.AnswerAgentQuestionService;
import dev.serverfs.application.service.CancelAgentTaskService;
import dev.serverfs.application.service.GetAgentTaskService;
import dev.serverfs.application.service.GuardedSubmitAgentTaskService;
import dev.serverfs.application.service.ListAgentRuntimesService;
import dev.serverfs.application.service.ReadAgentTaskEventsService;
import dev.serverfs.application.service.ReadAgentTaskResultService;
import dev.serverfs.application.service.RespondAgentApprovalService;
import dev.serverfs.application.service.SendAgentMessageService;
import dev.serverfs.application.service.SubmitAgentTaskService;
import dev.serverfs.application.service.TaskLifecycle;
import dev.serverfs.bootstrap.ServerFsMain;
import dev.serverfs.bootstrap.ServerFsVersion;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.domain.task.AgentLimits;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Agent part of {@code serve} (ARCHITECTURE.md §1): with {@code SERVERFS_AGENT_EMBEDDED=true} it hosts the
 * Agent service in-process — prepares the lock directory as the Bridge would, opens the SQLite store and result
 * spool in the state directory, builds the runtimes (the test-only {@code fake} when enabled; {@code codex} and
 * {@code claude} have no adapter yet and so probe unavailable), reconciles tasks and guards left by a previous
 * process and collects expired tasks. Otherwise the tools answer {@code AGENT_BRIDGE_UNAVAILABLE} until the Bridge
 * client lands. {@link #tools} are the nine Agent tools; ServeWiring registers them on the Agent surface.
 */
public final class AgentWiring implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AgentWiring.class);

    private final List<McpTool> tools;
    private final Optional<Embedded> embedded;

    private AgentWiring(List<McpTool> tools, Optional<Embedded> embedded) {
        this.tools = List.copyOf(tools);
        this.embedded = embedded;
    }

    /** Builds the Agent side for this configuration; starts the embedded service only when it is enabled. */
    public static AgentWiring start(ServerFsConfig config, WorkdirFileSystem fs) {
        ServerFsConfig.Agent agent = config.agent();
        boolean offerFake = agent.fakeRuntimeEnabled();
        if (!(agent.bridgeEnabled() && agent.embedded() && config.workdirs().anyAgentEnabled())) {
            UnavailableBridge bridge = new UnavailableBridge();
            return new AgentWiring(
                    tools(
                            bridge, bridge, bridge, bridge, bridge, bridge, bridge, bridge, bridge, config, fs,
                            offerFake),
                    Optional.empty());
        }
        Embedded e = Embedded.start(config);
        try {
            TaskLifecycle lifecycle = e.lifecycle;
            List<McpTool> tools = tools(
                    new ListAgentRuntimesService(lifecycle),
                    new SubmitAgentTaskService(lifecycle),
                    new GetAgentTaskService(e.stores.taskStore()),
                    new ReadAgentTaskEventsService(e.stores.taskStore()),
                    new ReadAgentTaskResultService(e.stores.taskStore(), e.spool, lifecycle.limits()),
                    new RespondAgentApprovalService(lifecycle),
                    new AnswerAgentQuestionService(lifecycle),
                    new SendAgentMessageService(lifecycle),
                    new CancelAgentTaskService(lifecycle),
                    config,
                    fs,
                    offerFake);
            return new AgentWiring(tools, Optional.of(e));
        } catch (RuntimeException failure) {
            e.close();
            throw failure;
        }
    }

    private static List<McpTool> tools(
            ListAgentRuntimesUseCase list,
            SubmitAgentTaskUseCase submit,
            GetAgentTaskUseCase get,
            ReadAgentTaskEventsUseCase events,
            ReadAgentTaskResultUseCase result,
            RespondAgentApprovalUseCase respond,
            AnswerAgentQuestionUseCase answer,
            SendAgentMessageUseCase send,
            CancelAgentTaskUseCase cancel,
            ServerFsConfig config,
            WorkdirFileSystem fs,
            boolean offerFake) {
        return List.of(
                new ListAgentRuntimesTool(list),
                new SubmitAgentTaskTool(new GuardedSubmitAgentTaskService(config.workdirs(), fs, submit), offerFake),
                new GetAgentTaskTool(get),
                new ReadAgentTaskEventsTool(events),
                new ReadAgentTaskResultTool(result),
                new RespondAgentApprovalTool(respond),
                new AnswerAgentQuestionTool(answer),
                new SendAgentMessageTool(send),
                new CancelAgentTaskTool(cancel));
    }

    /** The nine Agent tools, in {@code tools/list} order. */
    public List<McpTool> tools() {
        return tools;
    }

    /** The embedded writer leases (for the mutation gate), when the Agent service runs in this process. */
    public Optional<WriterLeases> writerLeases() {
        return embedded.map(e -> e.leases);
    }

    /** The embedded lifecycle (lazy guard reconciliation for the mutation gate), when embedded. */
    public Optional<TaskLifecycle> lifecycle() {
        return embedded.map(e -> e.lifecycle);
    }

    /** Interrupts live tasks ({@code BRIDGE_SHUTDOWN}), stops the timers and closes the store. */
    @Override
    public void close() {
        embedded.ifPresent(Embedded::close);
    }

    /** The in-process Agent service and what it owns. */
    private static final class Embedded implements AutoCloseable {
        private final SqliteTaskStores stores;
        private final FileResultSpool spool;
        private final FlockWriterLeases leases;
        private final ScheduledTimers timers;
        private final ExecutorService runners;
        private final TaskLifecycle lifecycle;

        private Embedded(
                SqliteTaskStores stores,
                FileResultSpool spool,
                FlockWriterLeases leases,
                ScheduledTimers timers,
                ExecutorService runners,
                TaskLifecycle lifecycle) {
            this.stores = stores;
            this.spool = spool;
            this.leases = leases;
            this.timers = timers;
            this.runners = runners;
            this.lifecycle = lifecycle;
        }

        static Embedded start(ServerFsConfig config) {
            ServerFsConfig.Agent agent = config.agent();
            Path stateDir = agent.stateDir()
                    .orElseThrow(() -> new IllegalStateException("embedded Agent needs a state directory"));
            FlockWriterLeases leases = new FlockWriterLeases(agent.lockDir());
            leases.prepare();
            SqliteTaskStores stores = SqliteTaskStores.open(stateDir);
            Clock clock = Clock.systemUTC();
            ScheduledTimers timers = new ScheduledTimers(clock);
            ExecutorService runners = Executors.newVirtualThreadPerTaskExecutor();
            try {
                AgentLimits limits = AgentLimits.defaults()
                        .withLifecycle(
                                agent.taskTimeout(),
                                agent.interactionTimeout(),
                                agent.maxActiveTasks(),
                                agent.retention());
                FileResultSpool spool = new FileResultSpool(stateDir);
                TaskLifecycle lifecycle = new TaskLifecycle(
                        config.workdirs(),
                        runtimes(agent),
                        stores.taskStore(),
                        spool,
                        leases,
                        new RandomIds(),
                        timers,
                        clock,
                        runners,
                        TaskLifecycle.Settings.defaults(limits, ServerFsVersion.version()));
                lifecycle.recoverAtStartup();
                log.atInfo()
                        .setMessage("agent_embedded_started")
                        .addKeyValue("fake_runtime", agent.fakeRuntimeEnabled())
                        .log();
                return new Embedded(stores, spool, leases, timers, runners, lifecycle);
            } catch (RuntimeException e) {
                timers.close();
                runners.shutdownNow();
                stores.close();
                throw e;
            }
        }

        private static List<AgentRuntime> runtimes(ServerFsConfig.Agent agent) {
            List<AgentRuntime> runtimes = new ArrayList<>();
            if (agent.fakeRuntimeEnabled()) {
                runtimes.add(new FakeAgentRuntime(
                        FakeAgentRuntime.javaCommand(ServerFsMain.class.getName(), "fake-provider")));
            }
            // codex and claude: no adapter yet; allowlisted ones probe unavailable (AGENT_RUNTIME_UNAVAILABLE).
            return runtimes;
        }

        @Override
        public void close() {
            try {
                lifecycle.shutdown();
            } finally {
                runners.shutdown();
                try {
                    // runners finish their cleanup (lease release) after the bounded provider cancel
                    runners.awaitTermination(15, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                timers.close();
                stores.close();
            }
        }
    }
}
