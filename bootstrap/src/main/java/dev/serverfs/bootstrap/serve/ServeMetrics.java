package dev.serverfs.bootstrap.serve;

import dev.serverfs.adapters.fs.LinuxWorkdirFileSystem;
import dev.serverfs.adapters.mcp.TransportStats;
import dev.serverfs.adapters.metrics.BridgeGauges;
import dev.serverfs.adapters.metrics.MeteredAuditLog;
import dev.serverfs.adapters.metrics.PrometheusMetrics;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.bootstrap.metrics.ProcessMetrics;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * The metrics of {@code serve} when {@code SERVERFS_METRICS_PORT} is set (issue 27): the process's registry and
 * listener ({@link ProcessMetrics}), the metering audit log, the transport's and the searches' meters, and in the
 * split deployment the Bridge's reachability and hop latency. The listener is started last.
 */
final class ServeMetrics implements AutoCloseable {

    private final ProcessMetrics process;
    private final PrometheusMetrics metrics;

    private ServeMetrics(ProcessMetrics process) {
        this.process = process;
        this.metrics = process.meters();
    }

    /** Present exactly when the configuration turns metrics on. */
    static Optional<ServeMetrics> create(ServerFsConfig.Network network) {
        return ProcessMetrics.create(network.metrics()).map(ServeMetrics::new);
    }

    AuditLog audit(AuditLog delegate) {
        return new MeteredAuditLog(delegate, metrics.registry());
    }

    void agentTasks(TaskStore store) {
        process.agentTasks(store);
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

    void recoveryGuards(Path lockDir) {
        process.recoveryGuards(lockDir);
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
        process.listen();
    }

    InetSocketAddress address() {
        return process.address();
    }

    @Override
    public void close() {
        process.close();
    }
}
