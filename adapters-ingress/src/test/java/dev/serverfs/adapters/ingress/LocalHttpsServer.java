package dev.serverfs.adapters.ingress;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real HTTPS upstream on 127.0.0.1 with an ephemeral port for the ingress tests. Routes are exact paths; every
 * request's headers are recorded. {@link #release} frees handlers that stall.
 */
final class LocalHttpsServer implements AutoCloseable {

    private final HttpsServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, HttpHandler> routes = new ConcurrentHashMap<>();
    final List<Map<String, List<String>>> requests = new CopyOnWriteArrayList<>();
    final List<String> paths = new CopyOnWriteArrayList<>();
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicLong bytesWritten = new AtomicLong();

    LocalHttpsServer(TestTls tls) {
        try {
            server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setHttpsConfigurator(new HttpsConfigurator(tls.serverContext()));
        server.setExecutor(executor);
        server.createContext("/", exchange -> {
            requests.add(Map.copyOf(exchange.getRequestHeaders()));
            String target = exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null
                            ? ""
                            : "?" + exchange.getRequestURI().getRawQuery());
            paths.add(target);
            HttpHandler handler = routes.get(exchange.getRequestURI().getRawPath());
            try (exchange) {
                if (handler == null) {
                    exchange.sendResponseHeaders(404, -1);
                } else {
                    handler.handle(exchange);
                }
            }
        });
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    LocalHttpsServer route(String path, HttpHandler handler) {
        routes.put(path, handler);
        return this;
    }

    LocalHttpsServer bytes(String path, byte[] body) {
        return route(path, exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
            exchange.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
            write(exchange, body);
        });
    }

    /** A 200 without Content-Length (chunked) that streams {@code total} bytes. */
    LocalHttpsServer chunked(String path, long total) {
        return route(path, exchange -> {
            exchange.sendResponseHeaders(200, 0);
            byte[] chunk = new byte[16 * 1024];
            long left = total;
            try (OutputStream out = exchange.getResponseBody()) {
                while (left > 0) {
                    int n = (int) Math.min(chunk.length, left);
                    out.write(chunk, 0, n);
                    bytesWritten.addAndGet(n);
                    left -= n;
                }
            } catch (IOException clientWentAway) {
                // expected when the client stops reading at its ceiling
            }
        });
    }

    LocalHttpsServer redirect(String path, int status, String location) {
        return route(path, exchange -> {
            if (location != null) {
                exchange.getResponseHeaders().set("Location", location);
            }
            exchange.sendResponseHeaders(status, -1);
        });
    }

    /** Sends headers, then stalls until {@link #release} is counted down (or the client gives up). */
    LocalHttpsServer stall(String path) {
        return route(path, exchange -> {
            exchange.sendResponseHeaders(200, 10);
            exchange.getResponseBody().flush();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** Counts {@code arrived} down when the request is in, then answers {@code body} only after {@link #release}. */
    LocalHttpsServer held(String path, byte[] body, CountDownLatch arrived) {
        return route(path, exchange -> {
            arrived.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            exchange.sendResponseHeaders(200, body.length);
            write(exchange, body);
        });
    }

    /**
     * A 200 that declares a large body and then sends one byte per {@code every} (each read well within the read
     * timeout) until {@link #release} or the client goes away: a slow-drip upstream.
     */
    LocalHttpsServer trickle(String path, Duration every) {
        return route(path, exchange -> {
            exchange.sendResponseHeaders(200, 1_000_000);
            try (OutputStream out = exchange.getResponseBody()) {
                // The pause is the upstream's behaviour under test; close() ends it at once.
                while (!release.await(every.toMillis(), TimeUnit.MILLISECONDS)) {
                    out.write('x');
                    out.flush();
                    bytesWritten.incrementAndGet();
                }
            } catch (IOException clientWentAway) {
                // expected: the fetcher gives up at its deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** Answers {@code status} with {@code location} only after {@code delay} (or at once on {@link #release}). */
    LocalHttpsServer slowRedirect(String path, Duration delay, String location) {
        return route(path, exchange -> {
            try {
                release.await(delay.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.getResponseHeaders().set("Location", location);
            exchange.sendResponseHeaders(302, -1);
        });
    }

    private void write(HttpExchange exchange, byte[] body) throws IOException {
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
            bytesWritten.addAndGet(body.length);
        }
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
