package dev.serverfs.bootstrap.bridge;

import dev.serverfs.adapters.bridge.BridgeServer;
import dev.serverfs.adapters.bridge.BridgeStats;
import dev.serverfs.adapters.metrics.PrometheusMetrics;
import dev.serverfs.bootstrap.agent.EmbeddedAgent;
import dev.serverfs.bootstrap.cli.SubCommand;
import dev.serverfs.bootstrap.config.ConfigLoader;
import dev.serverfs.bootstrap.config.ConfigurationException;
import dev.serverfs.bootstrap.config.EnvFileOption;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.bootstrap.logging.ServerFsLogging;
import dev.serverfs.bootstrap.logging.StartupEvents;
import dev.serverfs.bootstrap.metrics.ProcessMetrics;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * {@code serverfs bridge [--env-file F]}: the Agent Bridge of the split deployment (reference §1.2, §4). It reads
 * the same variables as {@code serve} (CONTRACT.md §3.4), binds the socket first — so a second Bridge, an unsafe
 * socket directory or a bad configuration exits 2 with the reason before the task store or the lock directory is
 * touched — then starts the same Agent service {@code serve} embeds and answers Bridge protocol v1 on the socket.
 * SIGTERM or SIGINT stops accepting and closes the socket, then stops the Agent service (active tasks {@code
 * interrupted} with {@code BRIDGE_SHUTDOWN}, leases released, guards kept where the provider's stop is unproven),
 * and exits 0. With {@code SERVERFS_AGENT_BRIDGE_METRICS_PORT} set it also answers {@code GET /metrics} (the Agent
 * gauges); a metrics port it cannot bind exits 1 naming that address.
 */
public final class BridgeCommand implements SubCommand {

    /** The stderr line a supervisor (or a test) waits for; it names no path. */
    public static final String READY = "ServerFS Agent Bridge ready";

    /** Exit code when the metrics listener can not be opened (e.g. the port is taken), as for {@code serve}. */
    public static final int EXIT_CANNOT_LISTEN = 1;

    private static final Set<ErrorCode> REFUSALS = Set.of(
            ErrorCode.AGENT_RESULT_STORAGE_ERROR, // the task store cannot be opened, e.g. corrupt (issue 24 item 7)
            ErrorCode.CONFIGURATION_ERROR,
            ErrorCode.LOCK_PATH_UNSAFE,
            ErrorCode.SOCKET_DIRECTORY_UNSAFE,
            ErrorCode.SOCKET_PATH_IN_USE);

    @Override
    public String name() {
        return "bridge";
    }

    @Override
    public String description() {
        return "Run the Agent Bridge: the Agent service on a Unix socket for a split serve.";
    }

    @Override
    public Options options() {
        return new Options().addOption(EnvFileOption.option());
    }

    @Override
    public int run(CommandLine line) throws InterruptedException {
        Logger log = LoggerFactory.getLogger("dev.serverfs.startup");
        ServerFsConfig config;
        try {
            config = ConfigLoader.loadBridge(System.getenv(), EnvFileOption.envFile(line));
        } catch (ConfigurationException e) {
            return StartupEvents.configurationFailed(e);
        }
        ServerFsLogging.applyLevel(config.logLevel());
        ServerFsConfig.Agent agent = config.agent();
        BridgeServer.Settings settings =
                BridgeServer.Settings.of(agent.bridgeSocket(), agent.peerUid(), agent.peerGid());
        BridgeServer server;
        try {
            server = BridgeServer.bind(settings);
        } catch (ServerFsException e) {
            return refused(e);
        }
        EmbeddedAgent hosted;
        try {
            hosted = EmbeddedAgent.start(config, settings.sharedGid());
        } catch (ServerFsException e) {
            server.close();
            return refused(e);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        Optional<ProcessMetrics> metrics;
        try {
            metrics = metrics(config, hosted, server.stats());
        } catch (ProcessMetrics.ListenFailed e) {
            hosted.close();
            server.close();
            log.atError()
                    .setMessage("listen_failed")
                    .addKeyValue("reason", e.reason())
                    .log();
            System.err.println("ServerFS: cannot listen on " + e.address() + ": " + e.reason());
            return EXIT_CANNOT_LISTEN;
        }
        CountDownLatch stopRequested = new CountDownLatch(1);
        // SIGTERM and SIGINT end the wait below instead of starting the JVM's shutdown, so the orderly stop runs on
        // this thread and the process exits 0 (systemd's and the tests' "stopped cleanly"), not 143.
        for (String name : new String[] {"TERM", "INT"}) {
            Signal.handle(new Signal(name), signal -> stopRequested.countDown());
        }
        server.accept(hosted.useCases());
        StartupEvents.started(config);
        log.atInfo()
                .setMessage("bridge_listening")
                .addKeyValue("shared_group", settings.sharesGroup())
                .addKeyValue(
                        "peer_identity_configured",
                        agent.peerUid().isPresent() || agent.peerGid().isPresent())
                .addKeyValue("runtimes", agent.enabledRuntimes().size())
                .log();
        metrics.ifPresent(m -> log.atInfo()
                .setMessage("metrics_listening")
                .addKeyValue("port", m.address().getPort())
                .log());
        System.err.println(READY);
        System.err.flush();
        try {
            stopRequested.await();
        } finally {
            try {
                // Stop accepting first: no call may reach a service that is shutting down.
                server.close();
                metrics.ifPresent(ProcessMetrics::close);
                hosted.close();
            } catch (RuntimeException e) {
                log.atWarn().setMessage("shutdown_incomplete").setCause(e).log();
            } finally {
                log.atInfo().setMessage("shutdown").log();
            }
        }
        return 0;
    }

    /**
     * The Bridge's own {@code /metrics} listener when {@code SERVERFS_AGENT_BRIDGE_METRICS_PORT} is set: the Agent
     * gauges of the task store it hosts and the recovery guards of its lock directory, the same meters an embedded
     * {@code serve} shows, so the alerts on them work in the split deployment too; and its socket's own counts.
     */
    private static Optional<ProcessMetrics> metrics(ServerFsConfig config, EmbeddedAgent hosted, BridgeStats stats) {
        Optional<ProcessMetrics> metrics =
                ProcessMetrics.create(config.network().bridgeMetrics());
        for (ProcessMetrics m : metrics.stream().toList()) {
            try {
                m.agentTasks(hosted.taskStore());
                m.recoveryGuards(config.agent().lockDir());
                socket(m.meters(), stats);
                m.listen();
            } catch (RuntimeException e) {
                m.close();
                throw e;
            }
        }
        return metrics;
    }

    /** The Bridge socket's own counts: requests dispatched, connections refused or cut by reason, connections open. */
    private static void socket(PrometheusMetrics meters, BridgeStats stats) {
        meters.counter(
                "serverfs.bridge.requests", "Request lines the Bridge dispatched from its socket", stats::requests);
        for (BridgeStats.Refusal why : BridgeStats.Refusal.values()) {
            meters.counter(
                    "serverfs.bridge.refused",
                    "Bridge connections refused or cut, by reason",
                    () -> stats.refusals(why),
                    "reason",
                    why.label());
        }
        meters.gauge(
                "serverfs.bridge.connections", "Allowed connections open on the Bridge socket", stats::openConnections);
    }

    /** A start-up refusal: exit 2 with {@code CODE: reason} (the messages name no path). */
    private static int refused(ServerFsException e) {
        if (!REFUSALS.contains(e.code())) {
            throw e;
        }
        String reason = e.code() == ErrorCode.CONFIGURATION_ERROR ? e.getMessage() : e.code() + ": " + e.getMessage();
        return StartupEvents.configurationFailed(reason);
    }
}
