package dev.serverfs.adapters.ingress;

import dev.serverfs.application.port.in.FetchRemoteFileUseCase;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.DefaultByteBufferPool;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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

    private final Undertow server;
    private final ExecutorService workers;

    private UndertowIngressSidecar(Undertow server, ExecutorService workers) {
        this.server = server;
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
                .setHandler(new SidecarHandler(fetch, workers, names))
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
        return new UndertowIngressSidecar(server, workers);
    }

    /** The bound address (with the real port when 0 was asked for). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getListenerInfo().getFirst().getAddress();
    }

    @Override
    public void close() {
        server.stop();
        workers.shutdownNow();
    }
}
