package dev.serverfs.adapters.metrics;

import io.micrometer.core.instrument.Gauge;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reachability of the split deployment's Bridge, probed once per scrape by connecting to its socket and closing at
 * once (no request is sent): {@code serverfs_agent_bridge_up} (1 or 0) and {@code
 * serverfs_agent_bridge_connect_seconds} (the probe's connect time; the hop's floor).
 */
public final class BridgeGauges {

    private final Path socket;
    private final AtomicLong up = new AtomicLong();
    private final AtomicLong connectNanos = new AtomicLong();

    private BridgeGauges(Path socket, PrometheusMetrics metrics) {
        this.socket = socket;
        Gauge.builder("serverfs.agent.bridge.up", up, AtomicLong::get)
                .description("1 when the Agent Bridge's socket accepted a connection at the last scrape, else 0")
                .register(metrics.registry());
        Gauge.builder("serverfs.agent.bridge.connect", connectNanos, v -> v.get() / 1e9)
                .description("Connect time of the last Bridge probe")
                .baseUnit("seconds")
                .register(metrics.registry());
    }

    /** Registers the gauges and probes {@code socket} before every scrape. */
    public static BridgeGauges register(Path socket, PrometheusMetrics metrics) {
        BridgeGauges gauges = new BridgeGauges(socket, metrics);
        gauges.probe();
        metrics.beforeScrape(gauges::probe);
        return gauges;
    }

    /** Connects once and records the outcome. */
    void probe() {
        long started = System.nanoTime();
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            connectNanos.set(System.nanoTime() - started);
            up.set(1);
        } catch (IOException | RuntimeException e) {
            up.set(0);
        }
    }
}
