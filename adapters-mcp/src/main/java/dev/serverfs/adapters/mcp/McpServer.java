package dev.serverfs.adapters.mcp;

import dev.serverfs.application.port.in.ReadResourceUseCase;
import dev.serverfs.application.port.out.AuditLog;
import io.undertow.UndertowOptions;
import io.undertow.connector.ByteBufferPool;
import io.undertow.server.DefaultByteBufferPool;
import io.undertow.server.protocol.http.HttpOpenListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.IoUtils;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.StreamConnection;
import org.xnio.Xnio;
import org.xnio.XnioWorker;
import org.xnio.channels.AcceptingChannel;

/**
 * The running MCP endpoint: Streamable HTTP at {@code POST /mcp} plus {@code GET /healthz}, on Undertow's HTTP/1.1
 * listener over an XNIO server of our own, so that connections past the cap are refused at accept ({@link
 * ConnectionGate}). Tool calls run on virtual threads, never on the I/O threads. Start with {@link #start}; {@link
 * #close} stops accepting, lets the exchanges in flight finish within {@link #CLOSE_GRACE}, and only then stops the
 * I/O threads and the calls' executor ({@link DrainHandler}).
 */
public final class McpServer implements AutoCloseable {

    private static final int IO_THREADS = 2;
    private static final int CONNECTION_IDLE_MILLIS = 120_000;
    /** Undertow's own default for a server with this much memory, less room for protocol headers (UNDERTOW-1209). */
    private static final int BUFFER_BYTES = 16 * 1024 - 20;

    private static final int POOLED_BUFFERS = 256;

    /**
     * How long {@link #close} lets the exchanges in flight finish (their answers written, their exchanges ended on
     * the I/O threads) before it stops the I/O threads and interrupts the calls still running; {@code serve}'s
     * shutdown hook allows 20 s in all, the Agent service's stop included.
     */
    static final Duration CLOSE_GRACE = Duration.ofSeconds(10);

    /** How long {@link #close} waits for the I/O threads to stop once nothing is in flight. */
    private static final Duration IO_STOP = Duration.ofSeconds(5);

    /** How long {@link #close} waits for the calls it interrupted, once the grace is over, to end. */
    private static final Duration INTERRUPTED_STOP = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(McpServer.class);

    /** Undertow.builder()'s own worker options, with our two I/O threads and two task threads. */
    private static final OptionMap WORKER_OPTIONS = OptionMap.builder()
            .set(Options.WORKER_IO_THREADS, IO_THREADS)
            .set(Options.WORKER_TASK_CORE_THREADS, IO_THREADS)
            .set(Options.WORKER_TASK_MAX_THREADS, IO_THREADS)
            .set(Options.CONNECTION_HIGH_WATER, 1_000_000)
            .set(Options.CONNECTION_LOW_WATER, 1_000_000)
            .set(Options.TCP_NODELAY, true)
            .set(Options.CORK, true)
            .getMap();

    /** Undertow.builder()'s own listening-socket options. */
    private static final OptionMap SOCKET_OPTIONS = OptionMap.builder()
            .set(Options.WORKER_IO_THREADS, IO_THREADS)
            .set(Options.TCP_NODELAY, true)
            .set(Options.REUSE_ADDRESSES, true)
            .set(Options.BALANCING_TOKENS, 1)
            .set(Options.BALANCING_CONNECTIONS, 2)
            .set(Options.BACKLOG, 1000)
            .getMap();

    private final XnioWorker io;
    private final AcceptingChannel<StreamConnection> listener;
    private final ConnectionGate connections;
    private final DrainHandler inFlight;
    private final ExecutorService workers;
    private final ByteBudget budget;
    private final ByteBudget responses;
    private final int port;
    private final String host;
    private final Set<String> tools;
    private final TransportStats stats;
    private final Disconnects disconnects;
    private final AtomicBoolean closed = new AtomicBoolean();

    private McpServer(
            XnioWorker io,
            AcceptingChannel<StreamConnection> listener,
            ConnectionGate connections,
            DrainHandler inFlight,
            ExecutorService workers,
            ByteBudget budget,
            ByteBudget responses,
            String host,
            Set<String> tools,
            TransportStats stats,
            Disconnects disconnects) {
        this.io = io;
        this.listener = listener;
        this.connections = connections;
        this.inFlight = inFlight;
        this.budget = budget;
        this.responses = responses;
        this.workers = workers;
        this.port = listener.getLocalAddress(InetSocketAddress.class).getPort();
        this.host = host;
        this.tools = tools;
        this.stats = stats;
        this.disconnects = disconnects;
    }

    /**
     * Binds {@code settings.host():settings.port()} (port 0 picks a free port) and serves the given tools, of which
     * those on a surface outside {@code settings.surfaces()} are left out. Fails when a tool's schema is missing
     * or a name is registered twice.
     */
    public static McpServer start(McpSettings settings, AuditLog audit, List<? extends McpTool> tools) {
        return start(settings, audit, tools, Optional.empty(), McpFeatures.NONE);
    }

    /**
     * As {@link #start(McpSettings, AuditLog, List)}, also offering {@code features} (prompts, extra resources,
     * completion), each announced only when present.
     */
    public static McpServer start(
            McpSettings settings, AuditLog audit, List<? extends McpTool> tools, McpFeatures features) {
        return start(settings, audit, tools, Optional.empty(), features);
    }

    /** As {@link #start(McpSettings, AuditLog, List)}, also serving the {@code serverfs://{workdir}/{+path}} template. */
    public static McpServer start(
            McpSettings settings, AuditLog audit, List<? extends McpTool> tools, ReadResourceUseCase resources) {
        return start(settings, audit, tools, Optional.of(new FileResourceTemplate(resources)), McpFeatures.NONE);
    }

    private static McpServer start(
            McpSettings settings,
            AuditLog audit,
            List<? extends McpTool> tools,
            Optional<FileResourceTemplate> resources,
            McpFeatures features) {
        Objects.requireNonNull(settings, "settings");
        ToolRegistry registry = new ToolRegistry(tools, settings.surfaces());
        McpSessions sessions = new McpSessions(settings.clock(), settings.sessionIdleTimeout(), settings.maxSessions());
        McpDispatcher dispatcher = new McpDispatcher(
                registry,
                new ToolInvoker(registry, audit),
                sessions,
                settings.serverVersion(),
                settings.surfaces(),
                resources,
                features);
        ExecutorService workers = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("mcp-call-", 0).factory());
        GateHolder gate = new GateHolder(settings);
        ByteBudget budget = new ByteBudget(settings.maxBodyBytesInFlight());
        ByteBudget responses = new ByteBudget(settings.maxResponseBytesInFlight());
        TransportStats stats = new TransportStats(sessions::size);
        Disconnects disconnects = Disconnects.start();
        McpHttpHandler handler = new McpHttpHandler(
                gate::current,
                sessions,
                dispatcher,
                settings.maxRequestBodyBytes(),
                budget,
                responses,
                settings.transport(),
                workers,
                stats,
                disconnects);
        // What Undertow.builder().start() does for one HTTP listener, with our accept listener in front.
        OptionMap serverOptions = OptionMap.builder()
                .set(UndertowOptions.NO_REQUEST_TIMEOUT, CONNECTION_IDLE_MILLIS)
                .set(UndertowOptions.REQUEST_PARSE_TIMEOUT, 30_000)
                .set(UndertowOptions.BUFFER_PIPELINED_DATA, true)
                .getMap();
        HttpOpenListener open = new HttpOpenListener(bufferPool(), serverOptions);
        DrainHandler inFlight = new DrainHandler(handler);
        open.setRootHandler(inFlight);
        ConnectionGate connections =
                new ConnectionGate(open, settings.transport().maxConnections(), stats);
        XnioWorker io = null;
        AcceptingChannel<StreamConnection> listener;
        try {
            io = Xnio.getInstance(McpServer.class.getClassLoader()).createWorker(WORKER_OPTIONS);
            listener = io.createStreamConnectionServer(
                    new InetSocketAddress(InetAddress.getByName(settings.host()), settings.port()),
                    connections,
                    SOCKET_OPTIONS);
        } catch (IOException | RuntimeException e) {
            if (io != null) {
                io.shutdownNow();
            }
            workers.close();
            disconnects.close();
            throw e instanceof IOException failure
                    ? new UncheckedIOException("cannot listen on the configured address", failure)
                    : (RuntimeException) e;
        }
        listener.resumeAccepts();
        McpServer server = new McpServer(
                io,
                listener,
                connections,
                inFlight,
                workers,
                budget,
                responses,
                settings.host(),
                Set.copyOf(registry.names()),
                stats,
                disconnects);
        gate.bind(server.port);
        return server;
    }

    /**
     * Undertow's default pool keeps a cache of buffers per thread, freed only when the thread is collected; with a
     * fresh virtual thread per call that is a new cache per call (174k direct buffers, 2.7 GiB, after 500k calls in
     * issue 10). This pool has no per-thread cache: one shared queue of at most {@value #POOLED_BUFFERS} buffers of
     * Undertow's default size; any beyond are left to the collector.
     */
    static ByteBufferPool bufferPool() {
        return new DefaultByteBufferPool(true, BUFFER_BYTES, POOLED_BUFFERS, 0);
    }

    /** The bound TCP port. */
    public int port() {
        return port;
    }

    /** Connections open right now (tests wait on it instead of racing the I/O threads). */
    int openConnections() {
        return connections.open();
    }

    /** Bytes of large answers not yet taken by their clients (tests wait on it). */
    long responseBytesInFlight() {
        return responses.reserved();
    }

    /** Probes of long stateless calls' connections so far (tests wait on it instead of racing the watchdog). */
    long disconnectProbes() {
        return disconnects.probes();
    }

    /** Request-body bytes held in memory right now (tests wait on it instead of racing the I/O threads). */
    long bodyBytesInFlight() {
        return budget.reserved();
    }

    /** The MCP endpoint URL as a local client reaches it, e.g. {@code http://127.0.0.1:8000/mcp}. */
    public TransportStats stats() {
        return stats;
    }

    public String endpoint() {
        String shown = host.contains(":") ? "[" + host + "]" : host;
        if ("0.0.0.0".equals(host) || "::".equals(host)) {
            shown = "127.0.0.1";
        }
        return "http://" + shown + ":" + port + McpHttpHandler.MCP_PATH;
    }

    /** Names of the tools this server offers. */
    public Set<String> toolNames() {
        return tools;
    }

    /**
     * Stops accepting connections and refuses new requests on open ones (503), lets the exchanges in flight finish
     * within {@link #CLOSE_GRACE}, then stops the I/O threads (closing every connection) and interrupts the calls
     * still running. A second call does nothing (XNIO's worker would hang on it).
     */
    @Override
    public void close() {
        closeWithin(CLOSE_GRACE);
    }

    /**
     * As {@link #close()}, with {@code grace} for the exchanges in flight. The I/O threads complete every exchange
     * (its answer is written from the call's thread, its end handed to the connection's I/O thread), so they stop
     * only after the exchanges end: stopped first, they cut answers off, and one already written had its end refused
     * by the stopped thread, which Undertow logged as {@code UT005071} with an {@code IllegalStateException}.
     */
    void closeWithin(Duration grace) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        long deadline = System.nanoTime() + grace.toNanos();
        IoUtils.safeClose(listener);
        try {
            int left = inFlight.close(grace);
            if (left > 0) {
                log.atWarn()
                        .setMessage("mcp_shutdown_grace_expired")
                        .addKeyValue("in_flight", left)
                        .log();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        io.shutdown();
        try {
            if (!io.awaitTermination(IO_STOP.toMillis(), TimeUnit.MILLISECONDS)) {
                io.shutdownNow();
            }
        } catch (InterruptedException e) {
            io.shutdownNow();
            Thread.currentThread().interrupt();
        }
        // Only a call that outlived the grace can still be running: it is interrupted (its connection is closed).
        workers.shutdown();
        try {
            if (!workers.awaitTermination(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS)) {
                workers.shutdownNow();
                // Interrupted calls end at once; the wiring closes what they use only after this returns.
                workers.awaitTermination(INTERRUPTED_STOP.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        disconnects.close();
    }

    /** The request gate needs the bound port, known only after the listener started (port 0). */
    private static final class GateHolder {
        private final McpSettings settings;
        private volatile RequestGate gate;

        GateHolder(McpSettings settings) {
            this.settings = settings;
            this.gate = create(settings.port());
        }

        void bind(int boundPort) {
            gate = create(boundPort);
        }

        RequestGate current() {
            return gate;
        }

        private RequestGate create(int boundPort) {
            return new RequestGate(boundPort, settings.allowedHosts(), settings.allowedOrigins(), settings.authToken());
        }
    }
}
