package dev.serverfs.adapters.metrics;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.GracefulShutdownHandler;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.xnio.Options;

/**
 * The {@code GET /metrics} listener, on an address and port of its own (never the MCP port): {@code 200} with the
 * Prometheus text exposition, {@code 401} without the bearer token when one is required, {@code 405} for another
 * method, {@code 404} for another path. Without a token (a loopback listener) the {@code Host} must be a loopback
 * name, else {@code 421}: a web page whose name was rebound to 127.0.0.1 could otherwise read the counters from a
 * browser on this host (a token, which the page cannot send, already stops that). No access log; a scrape runs on a
 * worker thread, never the I/O thread. {@link #close} lets a scrape in flight finish.
 */
public final class MetricsListener implements AutoCloseable {

    /** The content type of Prometheus's text exposition format 0.0.4. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** How long {@link #close} waits for the scrapes in flight. */
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(10);

    private final Undertow server;
    private final GracefulShutdownHandler inFlight;

    private MetricsListener(Undertow server, GracefulShutdownHandler inFlight) {
        this.server = server;
        this.inFlight = inFlight;
    }

    /**
     * Binds {@code host:port} (0 picks a free port). {@code requiredToken}, when present, must come as {@code
     * Authorization: Bearer <token>}.
     */
    public static MetricsListener start(
            String host, int port, Optional<String> requiredToken, PrometheusMetrics metrics) {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(requiredToken, "requiredToken");
        Objects.requireNonNull(metrics, "metrics");
        GracefulShutdownHandler inFlight = new GracefulShutdownHandler(
                new Handler(requiredToken.map(t -> t.getBytes(StandardCharsets.US_ASCII)), metrics));
        Undertow server = Undertow.builder()
                .addHttpListener(port, host)
                .setIoThreads(1)
                .setWorkerThreads(2)
                .setServerOption(UndertowOptions.ENABLE_HTTP2, false)
                .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, 0L)
                .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, 10_000)
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, 60_000)
                .setSocketOption(Options.READ_TIMEOUT, 30_000)
                .setSocketOption(Options.WRITE_TIMEOUT, 30_000)
                .setHandler(inFlight)
                .build();
        try {
            server.start();
        } catch (RuntimeException e) {
            try {
                server.stop();
            } catch (RuntimeException alreadyStopped) {
                e.addSuppressed(alreadyStopped);
            }
            throw e;
        }
        return new MetricsListener(server, inFlight);
    }

    /** The bound address (with the real port when 0 was asked for). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getListenerInfo().getFirst().getAddress();
    }

    /**
     * Answers every new request 503, waits up to {@link #CLOSE_GRACE} for the scrapes in flight to be answered, then
     * stops the listener: stopped at once, it cut a scrape's connection off mid-answer.
     */
    @Override
    public void close() {
        inFlight.shutdown();
        try {
            inFlight.awaitShutdown(CLOSE_GRACE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.stop();
    }

    private record Handler(Optional<byte[]> token, PrometheusMetrics metrics) implements HttpHandler {

        private static final String BEARER = "Bearer ";

        @Override
        public void handleRequest(HttpServerExchange exchange) {
            if (exchange.isInIoThread()) {
                exchange.dispatch(this);
                return;
            }
            exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
            if (!exchange.getRequestPath().equals("/metrics")) {
                answer(exchange, 404, "not found\n");
                return;
            }
            if (!exchange.getRequestMethod().equals(Methods.GET)) {
                exchange.getResponseHeaders().put(Headers.ALLOW, "GET");
                answer(exchange, 405, "method not allowed\n");
                return;
            }
            if (token.isEmpty() && !loopbackName(exchange.getHostName())) {
                answer(exchange, 421, "misdirected request: not a loopback host name\n");
                return;
            }
            if (token.isPresent() && !authorized(exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION))) {
                exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, "Bearer");
                answer(exchange, 401, "unauthorized\n");
                return;
            }
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, CONTENT_TYPE);
            exchange.setStatusCode(200);
            exchange.getResponseSender().send(metrics.scrape(), StandardCharsets.UTF_8);
        }

        /** {@code localhost}, an IPv4 literal in 127.0.0.0/8 or {@code ::1}: never a name DNS could rebind. */
        static boolean loopbackName(String host) {
            if (host.equalsIgnoreCase("localhost") || host.equals("[::1]") || host.equals("::1")) {
                return true;
            }
            String[] octets = host.split("\\.", -1);
            if (octets.length != 4 || !octets[0].equals("127")) {
                return false;
            }
            for (String octet : octets) {
                if (octet.isEmpty()
                        || octet.length() > 3
                        || !octet.chars().allMatch(c -> c >= '0' && c <= '9')
                        || Integer.parseInt(octet) > 255) {
                    return false;
                }
            }
            return true;
        }

        private boolean authorized(String header) {
            if (header == null || !header.startsWith(BEARER)) {
                return false;
            }
            byte[] given = header.substring(BEARER.length()).getBytes(StandardCharsets.US_ASCII);
            return MessageDigest.isEqual(given, token.orElseThrow());
        }

        private static void answer(HttpServerExchange exchange, int status, String text) {
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
            exchange.setStatusCode(status);
            exchange.getResponseSender().send(text, StandardCharsets.UTF_8);
        }
    }
}
