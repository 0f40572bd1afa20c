package dev.serverfs.adapters.ingress;

import dev.serverfs.application.port.in.FetchRemoteFileUseCase;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.DefaultByteBufferPool;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.xnio.Options;

/**
 * The file-ingress sidecar's HTTP server (contract reference §8) on undertow-core: {@code POST /fetch} and
 * {@code GET /healthz} only, request bodies read and answers written without blocking, fetches on virtual threads
 * (the use case bounds how many run at once: {@link #MAX_CONCURRENT_FETCHES} in {@code serverfs ingress}). Requests
 * must name the sidecar in {@code Host}: a
 * loopback name, the Compose service name ({@link #SERVICE_NAME}), the bind address or a name {@code serve} was
 * given for it, with the port. No access log.
 */
public final class UndertowIngressSidecar implements AutoCloseable {

    /** How many fetches the sidecar runs at once: each may hold up to the byte ceiling in memory. */
    public static final int MAX_CONCURRENT_FETCHES = 16;
    /** {@code serverfs-file-ingress}: the name {@code serve} reaches the sidecar by in the Compose deployment. */
    static final String SERVICE_NAME = SidecarFileIngress.DEFAULT_URL.getHost();

    private static final Set<String> WILDCARDS = Set.of("0.0.0.0", "::", "[::]", "");

    /** How long {@link #close} lets the fetches in flight finish and their answers be written. */
    static final Duration CLOSE_GRACE = Duration.ofSeconds(10);

    private final Undertow server;
    private final SidecarHandler handler;
    private final ExecutorService workers;
    private final AtomicBoolean closed = new AtomicBoolean();

    private UndertowIngressSidecar(Undertow server, SidecarHandler handler, ExecutorService workers) {
        this.server = server;
        this.handler = handler;
        this.workers = workers;
    }

    /** Binds {@code host:port} (port 0 picks a free port) and starts serving; fails if the port is taken. */
    public static UndertowIngressSidecar start(String host, int port, FetchRemoteFileUseCase fetch) {
        return start(host, port, fetch, Set.of());
    }

    /**
     * As {@link #start(String, int, FetchRemoteFileUseCase)}, also accepting requests whose {@code Host} is one of
     * {@code alsoNamed} (lower case, IPv6 literals in brackets): the host of the URL {@code serve} was given for it.
     */
    public static UndertowIngressSidecar start(
            String host, int port, FetchRemoteFileUseCase fetch, Set<String> alsoNamed) {
        Objects.requireNonNull(host, "host");
        Set<String> names = new HashSet<>(Set.of("127.0.0.1", "localhost", "[::1]", SERVICE_NAME));
        names.addAll(alsoNamed);
        String bound = host.strip().toLowerCase(Locale.ROOT);
        if (!WILDCARDS.contains(bound)) {
            names.add(bound.contains(":") && !bound.startsWith("[") ? "[" + bound + "]" : bound);
        }
        ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
        SidecarHandler handler = new SidecarHandler(fetch, workers, names);
        Undertow server = Undertow.builder()
                .addHttpListener(port, host)
                // Undertow's default pool caches buffers per thread, a new cache per virtual thread (issue 10, 4b):
                // one shared queue of at most 64 buffers of the default size instead.
                .setByteBufferPool(new DefaultByteBufferPool(true, 16 * 1024 - 20, 64, 0))
                .setIoThreads(2)
                .setServerOption(UndertowOptions.ENABLE_HTTP2, false)
                .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, (long) SidecarHandler.MAX_REQUEST_BYTES)
                .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, 10_000)
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, 60_000)
                // Bounds every socket read and write, so a stalled peer cannot hold a connection forever.
                .setSocketOption(Options.READ_TIMEOUT, 60_000)
                .setSocketOption(Options.WRITE_TIMEOUT, 60_000)
                .setHandler(handler)
                .build();
        try {
            server.start();
        } catch (RuntimeException e) {
            try {
                server.stop();
            } catch (RuntimeException alreadyStopped) {
                e.addSuppressed(alreadyStopped);
            }
            workers.shutdownNow();
            throw e;
        }
        return new UndertowIngressSidecar(server, handler, workers);
    }

    /** The bound address (with the real port when 0 was asked for). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getListenerInfo().getFirst().getAddress();
    }

    /**
     * Refuses new requests (503 {@code FILE_INGRESS_UNAVAILABLE}, {@code /healthz} too), lets the fetches in flight
     * finish and their answers be written within {@link #CLOSE_GRACE}, interrupts what is left, and only then stops the
     * I/O threads: each answer ends on them, and stopped first they cut it off (a finished fetch's end was refused
     * with a {@code RejectedExecutionException}). A second call does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        handler.refuseNewRequests();
        workers.shutdown();
        try {
            if (!workers.awaitTermination(CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                workers.shutdownNow();
                workers.awaitTermination(1, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        server.stop();
    }
}
