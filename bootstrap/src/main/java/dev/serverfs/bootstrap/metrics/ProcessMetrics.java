package dev.serverfs.bootstrap.metrics;

import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.adapters.metrics.AgentTaskGauges;
import dev.serverfs.adapters.metrics.MetricsListener;
import dev.serverfs.adapters.metrics.PrometheusMetrics;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.bootstrap.config.ServerFsConfig.MetricsEndpoint;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;

/**
 * One process's metrics when its metrics port is set: the registry (JVM and process basics bound), the Agent gauges
 * of the process hosting the Agent service, and the {@code GET /metrics} listener, started last by {@link #listen}.
 * {@code serve} adds its own meters to {@link #meters}; {@code serverfs bridge} uses this as it is.
 */
public final class ProcessMetrics implements AutoCloseable {

    private final MetricsEndpoint endpoint;
    private final PrometheusMetrics metrics = new PrometheusMetrics();
    private MetricsListener listener;

    private ProcessMetrics(MetricsEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** Present exactly when the configuration turns this process's listener on. */
    public static Optional<ProcessMetrics> create(Optional<MetricsEndpoint> endpoint) {
        return endpoint.map(ProcessMetrics::new);
    }

    /** The registry further meters are registered in. */
    public PrometheusMetrics meters() {
        return metrics;
    }

    /** The Agent service's tasks by status and runtime, and those waiting on a human, read at each scrape. */
    public void agentTasks(TaskStore store) {
        AgentTaskGauges.register(store, Clock.systemUTC(), metrics);
    }

    /** Recovery guards present in the lock directory, whichever process wrote them. */
    public void recoveryGuards(Path lockDir) {
        FlockWriterLeases leases = FlockWriterLeases.peer(lockDir);
        metrics.gauge(
                "serverfs.agent.recovery.guards",
                "Recovery guards in the lock directory: workdirs whose writers wait for a task's recovery",
                leases::guards);
    }

    /** Opens the listener; {@link ListenFailed} names the operator's own address when it cannot. */
    public void listen() {
        try {
            listener = MetricsListener.start(endpoint.host(), endpoint.port(), endpoint.token(), metrics);
        } catch (RuntimeException e) {
            throw new ListenFailed(endpoint.host() + ":" + endpoint.port(), e);
        }
    }

    /** The bound address, once {@link #listen} returned. */
    public InetSocketAddress address() {
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

    /** The metrics listener could not be opened; {@code address} is the operator's own setting. */
    public static final class ListenFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String address;

        ListenFailed(String address, RuntimeException cause) {
            super("cannot open the metrics listener", cause);
            this.address = address;
        }

        public String address() {
            return address;
        }

        /** The operating system's reason (e.g. the address in use), never a path. */
        public String reason() {
            Throwable t = this;
            while (t.getCause() != null) {
                t = t.getCause();
            }
            return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        }
    }
}
