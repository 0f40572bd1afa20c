package dev.serverfs.bootstrap.serve;

import dev.serverfs.adapters.fs.LinuxWorkdirFileSystem;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.adapters.mcp.TransportStats;
import dev.serverfs.adapters.metrics.AgentTaskGauges;
import dev.serverfs.adapters.metrics.BridgeGauges;
import dev.serverfs.adapters.metrics.MeteredAuditLog;
import dev.serverfs.adapters.metrics.MetricsListener;
import dev.serverfs.adapters.metrics.PrometheusMetrics;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * The metrics of {@code serve} when {@code SERVERFS_METRICS_PORT} is set (issue 27): one registry, the metering
 * audit log, the Agent gauges when the Agent service is embedded, and the {@code /metrics} listener, started last.
 */
final class ServeMetrics implements AutoCloseable {

    private final ServerFsConfig.Network network;
    private final PrometheusMetrics metrics = new PrometheusMetrics();
    private MetricsListener listener;

    private ServeMetrics(ServerFsConfig.Network network) {
        this.network = network;
    }

    /** Present exactly when the configuration turns metrics on. */
    static Optional<ServeMetrics> create(ServerFsConfig.Network network) {
        return network.metricsPort().map(port -> new ServeMetrics(network));
    }

    AuditLog audit(AuditLog delegate) {
        return new MeteredAuditLog(delegate, metrics.registry());
    }

    void agentTasks(TaskStore store) {
        AgentTaskGauges.register(store, Clock.systemUTC(), metrics);
    }

    /** Searches and walks holding or waiting for a slot of the filesystem adapter. */
    void searches(LinuxWorkdirFileSystem fs) {
        String what = "find_files walks and search_text searches by state (running on a slot, queued for one)";
        metrics.gauge("serverfs.searches", what, fs::searchesRunning, "state", "running");
        metrics.gauge("serverfs.searches", what, fs::searchesQueued, "state", "queued");
    }

    /** The split deployment's Bridge socket, probed at each scrape. */
    void bridge(Path socket) {
        BridgeGauges.register(socket, metrics);
    }

    /** The histogram of Bridge calls' round trips (the split deployment's hop), fed by the Bridge client. */
    LongConsumer bridgeHops() {
        return metrics.latency(
                "serverfs.agent.bridge.call",
                "Round trip of one Agent call through the Bridge socket, request written to answer read");
    }

    /** Recovery guards present in the lock directory, whichever process wrote them. */
    void recoveryGuards(Path lockDir) {
        FlockWriterLeases leases = FlockWriterLeases.peer(lockDir);
        metrics.gauge(
                "serverfs.agent.recovery.guards",
                "Recovery guards in the lock directory: workdirs whose writers wait for a task's recovery",
                leases::guards);
    }

    /** The MCP transport's refusals by reason, requests by protocol era, and open sessions. */
    void transport(TransportStats stats) {
        for (TransportStats.Refusal why : TransportStats.Refusal.values()) {
            metrics.counter(
                    "serverfs.mcp.refused",
                    "Requests and connections the transport turned away, by reason",
                    () -> stats.refusals(why),
                    "reason",
                    why.label());
        }
        for (TransportStats.Era era : TransportStats.Era.values()) {
            metrics.counter(
                    "serverfs.mcp.requests",
                    "JSON-RPC requests received, by protocol era (session: 2025-11-25 and older)",
                    () -> stats.requests(era),
                    "era",
                    era.label());
        }
        metrics.gauge("serverfs.mcp.sessions", "Open sessions of the 2025-11-25 era", stats::openSessions);
    }

    void listen() {
        int port = network.metricsPort().orElseThrow();
        try {
            listener = MetricsListener.start(network.metricsHost(), port, network.metricsToken(), metrics);
        } catch (RuntimeException e) {
            throw new ListenFailed(network.metricsHost() + ":" + port, e);
        }
    }

    /** The metrics listener could not be opened; {@code address} is the operator's own setting. */
    static final class ListenFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String address;

        ListenFailed(String address, RuntimeException cause) {
            super("cannot open the metrics listener", cause);
            this.address = address;
        }

        String address() {
            return address;
        }
    }

    InetSocketAddress address() {
        return listener.address();
    }

    @Override
    public void close() {
        try {
            if (listener != null) {
                listener.close();
            }
        } finally {
            metrics.close();
        }
    }
}
