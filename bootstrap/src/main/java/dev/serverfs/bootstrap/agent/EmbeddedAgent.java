package dev.serverfs.bootstrap.agent;

import dev.serverfs.adapters.fs.LinuxWorkdirFileSystem;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.adapters.sqlite.SqliteTaskStores;
import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.application.service.agent.AgentService;
import dev.serverfs.bootstrap.config.AgentRuntimeCatalogue;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.bootstrap.launch.ServerFsProcess;
import dev.serverfs.bootstrap.launch.ServerFsVersion;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.AgentLimits;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.workdir.Workdirs;
import dev.serverfs.provider.AgentRuntimeDescriptor;
import dev.serverfs.provider.EgressPolicy;
import dev.serverfs.provider.ProviderSandbox;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The Agent service hosted inside {@code serverfs serve} (CONTRACT.md §3.3) or {@code serverfs bridge}: SQLite store in the state directory,
 * spooled results beside it, {@code flock} leases and guards in the lock directory, the runtimes, and the nine use
 * cases for the MCP tools. {@link #start} prepares the lock directory and runs start-up reconciliation and GC;
 * {@link #close} interrupts live tasks ({@code BRIDGE_SHUTDOWN}) and closes the store.
 */
public final class EmbeddedAgent implements AutoCloseable {
    /** Each workdir's provider configuration, in the state directory (see {@link ProviderSandbox}). */
    static final String PROVIDER_HOMES = "provider-homes";

    private final SqliteTaskStores stores;
    private final ScheduledExecutorTimers timers;
    private final ExecutorService runners;
    private final LinuxWorkdirFileSystem directories;
    private final AgentService service;

    private EmbeddedAgent(
            SqliteTaskStores stores,
            ScheduledExecutorTimers timers,
            ExecutorService runners,
            LinuxWorkdirFileSystem directories,
            AgentService service) {
        this.stores = stores;
        this.timers = timers;
        this.runners = runners;
        this.directories = directories;
        this.service = service;
    }

    /**
     * The Agent service of this configuration, as {@code serve} embeds it and {@code serverfs bridge} serves it: the
     * real runtimes some workdir allows (their children get the allow-listed part of this process' environment —
     * HOME, PATH, the provider's credentials; see ClaudeCommandLine and CodexCommandLine — never ServerFS' own
     * settings), the test-only one when enabled; each built by its descriptor ({@link AgentRuntimeCatalogue}).
     *
     * @param sharedLockGid the group an MCP peer of another uid shares the lock directory through (reference §1.2);
     *     empty: private modes
     */
    public static EmbeddedAgent start(ServerFsConfig config, Optional<Integer> sharedLockGid) {
        ServerFsConfig.Agent agent = config.agent();
        List<String> fakeProviderCommand = ServerFsProcess.fakeProviderArgv();
        return start(
                agent,
                config.workdirs(),
                runtimes(
                        agent,
                        d -> !d.testOnly()
                                && agent.enabledRuntimes().contains(d.name().wire()),
                        new AgentRuntimeDescriptor.Host(System.getenv(), sandbox(config), fakeProviderCommand)),
                fakeProviderCommand,
                Clock.systemUTC(),
                ServerFsVersion.version(),
                sharedLockGid);
    }

    /** The runtimes of the descriptors {@code which} selects, each built from its resolved settings. */
    private static List<AgentRuntime> runtimes(
            ServerFsConfig.Agent agent, Predicate<AgentRuntimeDescriptor> which, AgentRuntimeDescriptor.Host host) {
        return AgentRuntimeCatalogue.ALL.stream()
                .filter(which)
                .map(d -> d.factory().create(agent.runtimeSettings().get(d.name()), host))
                .toList();
    }

    /**
     * The provider children's filesystem view (issue 25): bubblewrap, unless the operator opted out; ServerFS' own
     * state, locks and socket directory, its {@code --env-file}, and every workdir, concealed from each child; each
     * workdir's provider configuration kept in {@code provider-homes} of the state directory; its only network the
     * egress relay, which admits the providers' endpoints (the server's environment names them) and the operator's
     * {@code SERVERFS_AGENT_EGRESS_ALLOW}, and never this process' own listeners; through the proxy this process'
     * environment names ({@code HTTPS_PROXY}, {@code HTTP_PROXY}, {@code NO_PROXY}), if any.
     */
    static ProviderSandbox sandbox(ServerFsConfig config) {
        ServerFsConfig.Sandbox settings = config.agent().sandbox();
        if (settings.allowUnconfined()) {
            return ProviderSandbox.unconfined();
        }
        List<Path> serverPaths = serverPaths(config.agent(), config.workdirs());
        Path stateDir = config.agent()
                .stateDir()
                .orElseThrow(() -> new ServerFsException(
                        ErrorCode.CONFIGURATION_ERROR, "the embedded Agent needs SERVERFS_AGENT_BRIDGE_STATE_DIR"));
        Set<Integer> ownPorts = new HashSet<>();
        ownPorts.add(config.network().port());
        config.network().metricsPort().ifPresent(ownPorts::add);
        config.network().bridgeMetricsPort().ifPresent(ownPorts::add);
        // the ingress sidecar, where serve reaches it on a port of its own (a single-host install)
        int sidecarPort = URI.create(config.fileIngress().sidecarUrl()).getPort();
        if (config.fileIngress().enabled() && sidecarPort > 0) {
            ownPorts.add(sidecarPort);
        }
        return ProviderSandbox.confined(
                settings.bwrapBin(),
                System.getenv("PATH"),
                settings.readOnlyPaths(),
                serverPaths,
                stateDir.resolve(PROVIDER_HOMES),
                EgressPolicy.of(
                        System.getenv(), settings.egressAllow(), ownPorts, EgressPolicy.Upstream.of(System.getenv())),
                // how ProcessBuilder spells a child's argv (the locale's encoding; UTF-8 when unset)
                Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"), StandardCharsets.UTF_8));
    }

    /**
     * ServerFS' own files and directories, which no provider child sees: the state, lock and socket directories, the
     * {@code --env-file}, and every workdir's root.
     */
    private static List<Path> serverPaths(ServerFsConfig.Agent agent, Workdirs workdirs) {
        List<Path> serverPaths = new ArrayList<>();
        agent.stateDir().ifPresent(serverPaths::add);
        serverPaths.add(agent.lockDir());
        Optional.ofNullable(agent.bridgeSocket().getParent()).ifPresent(serverPaths::add);
        agent.sandbox().envFile().ifPresent(serverPaths::add);
        workdirs.all().forEach(w -> serverPaths.add(w.root()));
        return serverPaths;
    }

    /**
     * The host directories no task's events or result may name besides its own workdir (probe T): whatever a provider
     * view's mounts can name ({@code /proc/self/mountinfo}) of the host, the {@link #serverPaths} (every workdir root
     * among them), the serving user's home and the providers' configuration directories ({@code CODEX_HOME}, {@code
     * CLAUDE_CONFIG_DIR}, a runtime's absolute-path settings), each as configured and as its real path, which is what
     * the view's mounts show, and under the other names the view's mount table can give it ({@link MountNames}).
     */
    static List<String> hostDirectories(ServerFsConfig.Agent agent, Workdirs workdirs, Map<String, String> env) {
        List<Path> directories = new ArrayList<>(serverPaths(agent, workdirs));
        Stream.of("HOME", "CODEX_HOME", "CLAUDE_CONFIG_DIR")
                .map(env::get)
                .filter(Objects::nonNull)
                .map(Path::of)
                .forEach(directories::add);
        agent.runtimeSettings()
                .values()
                .forEach(settings -> settings.byName().values().forEach(value -> {
                    if (value instanceof Optional<?> set && set.orElse(null) instanceof Path path) {
                        directories.add(path);
                    }
                }));
        Set<String> names = new LinkedHashSet<>();
        for (Path p : directories) {
            if (p.isAbsolute()) {
                names.add(p.normalize().toString());
                try {
                    names.add(p.toRealPath().toString());
                } catch (IOException e) {
                    // not there (yet): its name is all a view can show
                }
            }
        }
        List<String> mountinfo = mountTable();
        for (String name : List.copyOf(names)) {
            names.addAll(MountNames.of(name, mountinfo));
        }
        return List.copyOf(names);
    }

    /** This process's mount table, which the provider views' mounts are taken from; empty where it cannot be read. */
    private static List<String> mountTable() {
        try {
            return Files.readAllLines(Path.of("/proc/self/mountinfo"));
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * The directories provider children start in, whose walk for the view's concealed entries (issue 25) also finds
     * the {@link #serverPaths} that exist now by identity, wherever they lie in a workdir: a task of an outer workdir
     * that renamed a directory above a nested one (another workdir, the state directory) cannot show it to the next
     * task under the new name. Confined children only: an unconfined one sees everything anyway.
     */
    static LinuxWorkdirFileSystem workingDirectories(ServerFsConfig.Agent agent, Workdirs workdirs) {
        return new LinuxWorkdirFileSystem(
                ServerFsProcess.fsResolution(),
                agent.sandbox().allowUnconfined() ? List.of() : serverPaths(agent, workdirs));
    }

    /** {@link #start(ServerFsConfig.Agent, Workdirs, List, List, Clock, String, Optional)} with private lock modes. */
    public static EmbeddedAgent start(
            ServerFsConfig.Agent config,
            Workdirs workdirs,
            List<AgentRuntime> runtimes,
            List<String> fakeProviderCommand,
            Clock clock,
            String version) {
        return start(config, workdirs, runtimes, fakeProviderCommand, clock, version, Optional.empty());
    }

    /**
     * Opens the store, prepares the lock directory and reconciles what a previous process left.
     *
     * @param runtimes the real runtimes (Codex, Claude); the test-only ones are added when the configuration enables
     *     them
     * @param fakeProviderCommand argv that runs the fake provider child (the hidden {@code fake-provider} command)
     */
    public static EmbeddedAgent start(
            ServerFsConfig.Agent config,
            Workdirs workdirs,
            List<AgentRuntime> runtimes,
            List<String> fakeProviderCommand,
            Clock clock,
            String version,
            Optional<Integer> sharedLockGid) {
        Path stateDir = config.stateDir()
                .orElseThrow(() -> new ServerFsException(
                        ErrorCode.CONFIGURATION_ERROR, "the embedded Agent needs SERVERFS_AGENT_BRIDGE_STATE_DIR"));
        AgentLimits limits = AgentLimits.defaults()
                .withLifecycle(
                        config.taskTimeout(), config.interactionTimeout(), config.maxActiveTasks(), config.retention());
        List<AgentRuntime> all = new ArrayList<>(runtimes);
        if (config.fakeRuntimeEnabled()) {
            all.addAll(runtimes(
                    config,
                    AgentRuntimeDescriptor::testOnly,
                    new AgentRuntimeDescriptor.Host(
                            System.getenv(), ProviderSandbox.unconfined(), fakeProviderCommand)));
        }
        FlockWriterLeases leases = new FlockWriterLeases(config.lockDir());
        leases.prepare(sharedLockGid);
        // Exclusive: start-up reconciliation below interrupts every non-terminal task, which is right only when no
        // other live Agent service (a second serve, a Bridge) owns this state directory and its tasks.
        SqliteTaskStores stores = SqliteTaskStores.openExclusive(stateDir);
        ScheduledExecutorTimers timers = new ScheduledExecutorTimers(clock);
        ExecutorService runners = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("serverfs-agent-task-", 0).factory());
        // The service's own root descriptors, as a Bridge would hold them: provider children start in directories
        // held beneath them (issue 10 item 9).
        LinuxWorkdirFileSystem directories = workingDirectories(config, workdirs);
        AgentService service = AgentServiceWiring.agentService(
                workdirs,
                directories,
                all,
                stores.taskStore(),
                new FileResultSpool(stateDir),
                leases,
                new SecureRandomIdGenerator(),
                timers,
                clock,
                runners,
                AgentService.Settings.defaults(limits, version, hostDirectories(config, workdirs, System.getenv())));
        service.recoverAtStartup();
        return new EmbeddedAgent(stores, timers, runners, directories, service);
    }

    /** The task store, read by the metrics' Agent gauges. */
    public TaskStore taskStore() {
        return stores.taskStore();
    }

    public AgentUseCases useCases() {
        return service.useCases();
    }

    /** Lazy reconciliation of a slot's recovery guard (e.g. before a mutation answers WORKDIR_RECOVERY_REQUIRED). */
    public boolean reconcileSlot(int slot) {
        return service.reconcileSlot(slot);
    }

    /** Waits until the task's runner released its lease (tests and orderly shutdown). */
    public boolean awaitDrained(TaskId id, Duration timeout) throws InterruptedException {
        return service.awaitDrained(id, timeout);
    }

    @Override
    public void close() {
        service.shutdown();
        runners.shutdown();
        try {
            // Runners release their leases and write their last rows while draining; the store closes after them.
            runners.awaitTermination(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        timers.close();
        stores.close();
        directories.close();
    }
}
