package dev.serverfs.bootstrap.serve;

import dev.serverfs.adapters.fs.LinuxWorkdirFileSystem;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.adapters.ingress.SidecarFileIngress;
import dev.serverfs.adapters.mcp.McpServer;
import dev.serverfs.adapters.mcp.McpSettings;
import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.Slf4jAuditLog;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.adapters.mcp.TransportLimits;
import dev.serverfs.adapters.mcp.tools.BinaryTools;
import dev.serverfs.adapters.mcp.tools.FilesystemMutationTools;
import dev.serverfs.adapters.mcp.tools.FilesystemReadTools;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.application.port.out.FileIngress;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.application.port.out.WorkdirMutations;
import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.application.service.CreateDirectoryService;
import dev.serverfs.application.service.CreateTextFileService;
import dev.serverfs.application.service.DeleteDirectoryService;
import dev.serverfs.application.service.DeleteFileService;
import dev.serverfs.application.service.DownloadBinaryFileService;
import dev.serverfs.application.service.EditTextFileService;
import dev.serverfs.application.service.FindFilesService;
import dev.serverfs.application.service.ListDirectoryService;
import dev.serverfs.application.service.ListWorkdirsService;
import dev.serverfs.application.service.MutationGate;
import dev.serverfs.application.service.ReadResourceService;
import dev.serverfs.application.service.ReadTextFileService;
import dev.serverfs.application.service.SearchTextService;
import dev.serverfs.application.service.SlotRecovery;
import dev.serverfs.application.service.StatFileService;
import dev.serverfs.application.service.UploadBinaryFileService;
import dev.serverfs.bootstrap.agent.AgentWiring;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.bootstrap.launch.ServerFsProcess;
import dev.serverfs.bootstrap.launch.ServerFsVersion;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdirs;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Composition of the {@code serve} process: configuration → adapters → use cases → MCP tools → {@link McpServer}.
 * Every tool group of every surface is registered in {@link #tools}; the server itself leaves out the surfaces
 * {@link #surfaces} does not enable (CONTRACT.md §1, reference §1.5). Closing stops the server (letting the calls in
 * flight finish), then closes what the calls use: the metrics, the Agent wiring, the ingress client, and the
 * filesystem adapter's root descriptors.
 */
public final class ServeWiring implements AutoCloseable {

    private final LinuxWorkdirFileSystem fileSystem;
    private final AgentWiring agent;
    private final Optional<SidecarFileIngress> ingress;
    private final McpServer server;
    private final Optional<ServeMetrics> metrics;

    private ServeWiring(
            LinuxWorkdirFileSystem fileSystem,
            AgentWiring agent,
            Optional<SidecarFileIngress> ingress,
            McpServer server,
            Optional<ServeMetrics> metrics) {
        this.fileSystem = fileSystem;
        this.agent = agent;
        this.ingress = ingress;
        this.server = server;
        this.metrics = metrics;
    }

    /** Starts the MCP endpoint for this configuration. */
    public static ServeWiring start(ServerFsConfig config) {
        return start(config, ingress(config));
    }

    /**
     * Starts the MCP endpoint with {@code fileIngress} as the upload's {@code file} source (tests pass an in-memory
     * one); present exactly when {@code SERVERFS_FILE_INGRESS_ENABLED=true}.
     */
    public static ServeWiring start(ServerFsConfig config, Optional<? extends FileIngress> fileIngress) {
        LinuxWorkdirFileSystem fileSystem = new LinuxWorkdirFileSystem(ServerFsProcess.fsResolution());
        Optional<SidecarFileIngress> owned =
                fileIngress.filter(SidecarFileIngress.class::isInstance).map(SidecarFileIngress.class::cast);
        AgentWiring agent = null;
        Optional<ServeMetrics> metrics = Optional.empty();
        McpServer server = null;
        try {
            metrics = ServeMetrics.create(config.network());
            AuditLog audit =
                    metrics.<AuditLog>map(m -> m.audit(new Slf4jAuditLog())).orElseGet(Slf4jAuditLog::new);
            Optional<ServeMetrics> meters = metrics;
            // The hop histogram only where there is a hop: a split deployment's Bridge client.
            agent = AgentWiring.start(
                    config,
                    fileSystem,
                    () -> meters.map(ServeMetrics::bridgeHops).orElse(nanos -> {}));
            List<McpTool> tools = new ArrayList<>(tools(
                    config,
                    fileSystem,
                    fileSystem,
                    writerLeases(config),
                    agent.slotRecovery(),
                    fileIngress.map(FileIngress.class::cast)));
            tools.addAll(agent.tools());
            server = McpServer.start(
                    settings(config), audit, tools, new ReadResourceService(config.workdirs(), fileSystem));
            for (ServeMetrics m : metrics.stream().toList()) {
                m.searches(fileSystem);
                m.transport(server.stats());
                agent.embedded().ifPresent(e -> m.agentTasks(e.taskStore()));
                if (config.agent().bridgeEnabled() && config.workdirs().anyAgentEnabled()) {
                    m.recoveryGuards(config.agent().lockDir());
                }
                if (config.agent().bridgeEnabled() && !config.agent().embedded()) {
                    m.bridge(config.agent().bridgeSocket());
                }
                m.listen();
            }
            return new ServeWiring(fileSystem, agent, owned, server, metrics);
        } catch (RuntimeException e) {
            metrics.ifPresent(ServeMetrics::close);
            if (server != null) {
                server.close();
            }
            if (agent != null) {
                agent.close();
            }
            owned.ifPresent(SidecarFileIngress::close);
            fileSystem.close();
            throw e;
        }
    }

    /** The sidecar client when {@code SERVERFS_FILE_INGRESS_ENABLED=true} (contract reference §8). */
    private static Optional<SidecarFileIngress> ingress(ServerFsConfig config) {
        ServerFsConfig.FileIngress settings = config.fileIngress();
        if (!settings.enabled()) {
            return Optional.empty();
        }
        return Optional.of(new SidecarFileIngress(URI.create(settings.sidecarUrl()), settings.timeout()));
    }

    public McpServer server() {
        return server;
    }

    /** The bound {@code /metrics} listener's address, when {@code SERVERFS_METRICS_PORT} is set. */
    public Optional<InetSocketAddress> metricsAddress() {
        return metrics.map(ServeMetrics::address);
    }

    /**
     * Closes the server first: it lets the calls in flight finish ({@link McpServer#close}), and those still use the
     * metrics, the Agent wiring, the ingress client and the filesystem adapter, closed after it.
     */
    @Override
    public void close() {
        try {
            server.close();
        } finally {
            try {
                metrics.ifPresent(ServeMetrics::close);
            } finally {
                try {
                    agent.close();
                } finally {
                    ingress.ifPresent(SidecarFileIngress::close);
                    fileSystem.close();
                }
            }
        }
    }

    static McpSettings settings(ServerFsConfig config) {
        ServerFsConfig.Network network = config.network();
        return new McpSettings(
                        network.host(),
                        network.port(),
                        network.allowedHosts(),
                        network.allowedOrigins(),
                        network.authToken(),
                        config.workdirs().maxRequestBodyBytes(),
                        ServerFsVersion.version(),
                        surfaces(config),
                        McpSettings.DEFAULT_SESSION_IDLE_TIMEOUT,
                        Clock.systemUTC())
                .withTransport(transport(network));
    }

    /** The connection cap (derived from the descriptor limit unless set) and the request-body deadlines. */
    static TransportLimits transport(ServerFsConfig.Network network) {
        TransportLimits defaults = TransportLimits.defaults();
        return defaults.withMaxConnections(network.maxConnections().orElse(defaults.maxConnections()))
                .withBodyDeadlines(
                        network.bodyTimeout(),
                        network.bodyMinBytesPerSecond(),
                        TransportLimits.DEFAULT_BODY_RATE_GRACE);
    }

    /** Filesystem tools always; binary tools when a workdir enables binary transfer; Agent tools when delegated. */
    static Set<ToolSurface> surfaces(ServerFsConfig config) {
        Set<ToolSurface> surfaces = EnumSet.of(ToolSurface.FILESYSTEM);
        if (config.workdirs().anyBinaryTransfer()) {
            surfaces.add(ToolSurface.BINARY);
        }
        if (config.agent().bridgeEnabled() && config.workdirs().anyAgentEnabled()) {
            surfaces.add(ToolSurface.AGENT);
        }
        return surfaces;
    }

    /**
     * The writer leases MCP mutations take: only when Agent delegation is configured (reference §2.8), on the
     * lock directory the Bridge (or the embedded Agent service) prepares; MCP never creates lock files. Embedded,
     * this process owns the lock tree; otherwise it trusts the directory's owner, the Bridge's user (issue 24 item 3).
     */
    static Optional<WriterLeases> writerLeases(ServerFsConfig config) {
        if (!config.agent().bridgeEnabled()) {
            return Optional.empty();
        }
        Path lockDir = config.agent().lockDir();
        return Optional.of(
                config.agent().embedded() ? new FlockWriterLeases(lockDir) : FlockWriterLeases.peer(lockDir));
    }

    /**
     * Every filesystem and binary tool in {@code tools/list} order, group by group (a new tool goes in its group's
     * class, not here; the server filters by surface).
     * {@code recovery} is the lazy guard reconciliation of the embedded Agent service ({@link SlotRecovery#NONE}
     * otherwise).
     */
    static List<McpTool> tools(
            ServerFsConfig config,
            WorkdirFileSystem fs,
            WorkdirMutations mutations,
            Optional<WriterLeases> leases,
            SlotRecovery recovery,
            Optional<FileIngress> ingress) {
        Workdirs workdirs = config.workdirs();
        ServerLimits limits = config.limits();
        // One gate per process: its mutation lock is the process-wide lock of reference §2.8. A guard it meets is
        // reconciled lazily by the embedded Agent service, if this process hosts it.
        MutationGate gate = new MutationGate(workdirs, leases, recovery);
        List<McpTool> tools = new ArrayList<>();
        tools.addAll(new FilesystemReadTools(
                        new ListWorkdirsService(workdirs),
                        new ListDirectoryService(workdirs, limits, fs),
                        new FindFilesService(workdirs, limits, fs),
                        new SearchTextService(workdirs, limits, fs),
                        new ReadTextFileService(workdirs, fs),
                        new StatFileService(workdirs, fs))
                .definitions());
        tools.addAll(new FilesystemMutationTools(
                        new CreateTextFileService(gate, mutations),
                        new EditTextFileService(gate, limits, mutations),
                        new DeleteFileService(gate, mutations),
                        new CreateDirectoryService(gate, mutations),
                        new DeleteDirectoryService(gate, mutations))
                .definitions());
        // Binary tools (reference §2.14-§2.15): the upload publishes through the same gate.
        tools.addAll(new BinaryTools(
                        new DownloadBinaryFileService(workdirs, fs),
                        new UploadBinaryFileService(gate, mutations, ingress),
                        ingress.isPresent())
                .definitions());
        return List.copyOf(tools);
    }
}
