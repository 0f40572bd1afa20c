package dev.serverfs.bootstrap.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * What the in-JVM mocks of the model APIs share ({@link MockMessagesApi} for Claude Code, {@link MockResponsesApi}
 * for Codex; PROVIDERS.md (f)): an HTTP server on 127.0.0.1 and an ephemeral port that records every JSON body
 * POSTed to one path and lets a {@link Handler} answer it, either with a status and a JSON error or as an SSE
 * stream ({@code event:} and {@code data:} lines). A stream may be held open ({@link Exchange#heldSse}, {@link
 * Sse#hold}), writing a keep-alive every 200 ms so a client that goes away is noticed, until its client closes it or
 * the server stops. A {@code GET} of a path given to {@link #serve} is answered with its JSON, a path given to {@link
 * #mcp} as an MCP server; other requests 404.
 */
final class MockModelServer implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    /** Answers one recorded request. */
    interface Handler {
        void answer(JsonNode body, Exchange exchange) throws IOException;
    }

    private final HttpServer server;
    private final String path;
    private final Handler handler;
    private final ExecutorService executor;
    private final List<JsonNode> bodies = new ArrayList<>();
    private final Map<String, String> served = new ConcurrentHashMap<>();
    private final Map<String, JsonNode> mcpTools = new ConcurrentHashMap<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final CountDownLatch holdEnded = new CountDownLatch(1);

    MockModelServer(String name, String path, Handler handler) throws IOException {
        this.path = path;
        this.handler = handler;
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** {@code http://127.0.0.1:<port>}. */
    String origin() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Answers every {@code GET} of {@code path} (its query ignored) with {@code json}, status 200. */
    void serve(String path, String json) {
        served.put(path, json);
    }

    /**
     * Answers {@code path} as an MCP server over streamable HTTP whose {@code tools/list} is {@code tools} (a JSON
     * array): each request with a JSON result ({@code initialize} with the protocol version asked for, others empty),
     * each notification 202; a {@code GET} (a stream of the server's own messages) 405.
     */
    void mcp(String path, String tools) throws IOException {
        mcpTools.put(path, JSON.readTree(tools));
    }

    List<JsonNode> bodies() {
        synchronized (bodies) {
            return List.copyOf(bodies);
        }
    }

    /** Waits (bounded) until at least {@code n} requests arrived; returns their bodies. */
    List<JsonNode> awaitBodies(int n, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (bodies) {
            while (bodies.size() < n) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("the mock got " + bodies.size() + " of " + n + " requests");
                }
                TimeUnit.NANOSECONDS.timedWait(bodies, left);
            }
            return List.copyOf(bodies);
        }
    }

    /**
     * True once a held stream was closed by its client (or the server stopped) within {@code timeout}: its handler
     * returned, also when the client went away before the stream was held (a cancelled turn's child can close its
     * connection between the request's arrival and the first event written, on a loaded machine).
     */
    boolean awaitHoldEnded(Duration timeout) throws InterruptedException {
        return holdEnded.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode tools = mcpTools.get(exchange.getRequestURI().getPath());
            if (tools != null) {
                answerMcp(exchange, tools);
                return;
            }
            String json = served.get(exchange.getRequestURI().getPath());
            if (exchange.getRequestMethod().equals("GET") && json != null) {
                new Exchange(exchange).status(200, json);
                return;
            }
            if (!exchange.getRequestMethod().equals("POST")
                    || !exchange.getRequestURI().getPath().equals(path)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
            synchronized (bodies) {
                bodies.add(body);
                bodies.notifyAll();
            }
            Exchange answer = new Exchange(exchange);
            try {
                handler.answer(body, answer);
            } finally {
                if (answer.held) {
                    holdEnded.countDown();
                }
            }
        }
    }

    private static void answerMcp(HttpExchange exchange, JsonNode tools) throws IOException {
        // the egress relay carries one plain-http request per connection: the client must not send another on it
        exchange.getResponseHeaders().add("connection", "close");
        if (!exchange.getRequestMethod().equals("POST")) {
            exchange.sendResponseHeaders(405, -1);
            return;
        }
        JsonNode request = JSON.readTree(exchange.getRequestBody().readAllBytes());
        if (!request.has("id")) {
            exchange.sendResponseHeaders(202, -1);
            return;
        }
        ObjectNode result = JSON.createObjectNode();
        switch (request.path("method").asText()) {
            case "initialize" -> {
                result.set("protocolVersion", request.path("params").path("protocolVersion"));
                result.putObject("capabilities").putObject("tools");
                result.putObject("serverInfo").put("name", "mock-apps").put("version", "1");
            }
            case "tools/list" -> result.set("tools", tools);
            default -> {}
        }
        ObjectNode answer = JSON.createObjectNode();
        answer.put("jsonrpc", "2.0");
        answer.set("id", request.get("id"));
        answer.set("result", result);
        byte[] bytes = JSON.writeValueAsBytes(answer);
        exchange.getResponseHeaders().add("content-type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    /** One request's answer. */
    final class Exchange {
        private final HttpExchange exchange;
        private boolean held;

        private Exchange(HttpExchange exchange) {
            this.exchange = exchange;
        }

        void status(int status, String json) throws IOException {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        }

        Sse sse() throws IOException {
            exchange.getResponseHeaders().add("content-type", "text/event-stream");
            exchange.getResponseHeaders().add("cache-control", "no-cache");
            exchange.sendResponseHeaders(200, 0);
            return new Sse(exchange.getResponseBody());
        }

        /**
         * As {@link #sse}, for a stream the handler then holds ({@link Sse#hold}): it ends when the handler returns,
         * whether the hold ended or a write before it failed because the client was already gone.
         */
        Sse heldSse() throws IOException {
            held = true;
            return sse();
        }
    }

    /** An open SSE stream. */
    final class Sse {
        private final OutputStream out;

        private Sse(OutputStream out) {
            this.out = out;
        }

        /** {@code event: <type>} and {@code data: <json>}, flushed. */
        void event(ObjectNode event) throws IOException {
            write("event: " + event.path("type").asText() + "\ndata: " + event + "\n\n");
        }

        /** Holds the stream open, writing {@code keepAlive} every 200 ms, until the client or the server goes. */
        void hold(String keepAlive) {
            try {
                while (!closed.await(200, TimeUnit.MILLISECONDS)) {
                    write(keepAlive);
                }
            } catch (IOException gone) {
                // the client closed the stream: what a held stream waits for
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void write(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
