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
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An in-JVM mock of the Anthropic Messages API for the real Claude Code CLI (PROVIDERS.md Part 2 (f)): {@code POST
 * /v1/messages} answered by a per-test {@link Script} as SSE with the {@code event:} lines the CLI requires, on
 * 127.0.0.1 and an ephemeral port. Every request body is recorded, so a test can assert on what reached "the model".
 * {@link Reply.Stall} streams a first text delta and then holds the stream open (with {@code ping} events, so a
 * client that goes away is noticed) until the client closes it or the mock stops.
 */
final class MockMessagesApi implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MODEL = "claude-sonnet-4-5";

    /** What the mock answers to one request. */
    sealed interface Reply {
        record Text(String text) implements Reply {}

        record ToolUse(String id, String name, JsonNode input) implements Reply {}

        record Status(int status) implements Reply {}

        record Stall(String partial) implements Reply {}
    }

    /** One recorded {@code /v1/messages} request. */
    record Request(JsonNode body) {
        /** The text of the last user message (a tool result's text is not user text). */
        String lastUserText() {
            String text = "";
            for (JsonNode m : body.path("messages")) {
                if (!m.path("role").asText().equals("user")) {
                    continue;
                }
                JsonNode content = m.path("content");
                if (content.isTextual()) {
                    text = content.asText();
                }
                for (JsonNode block : content) {
                    if (block.path("type").asText().equals("text")) {
                        text = block.path("text").asText();
                    }
                }
            }
            return text;
        }

        /** The tool_result block for {@code toolUseId} anywhere in the history. */
        Optional<JsonNode> toolResult(String toolUseId) {
            for (JsonNode m : body.path("messages")) {
                for (JsonNode block : m.path("content")) {
                    if (block.path("type").asText().equals("tool_result")
                            && block.path("tool_use_id").asText().equals(toolUseId)) {
                        return Optional.of(block);
                    }
                }
            }
            return Optional.empty();
        }

        /** The names of the tools the CLI offered the model. */
        List<String> toolNames() {
            List<String> names = new ArrayList<>();
            body.path("tools").forEach(t -> names.add(t.path("name").asText()));
            return names;
        }

        /** The whole body as text (history assertions). */
        String text() {
            return body.toString();
        }
    }

    /** Chooses the reply to each request. */
    interface Script extends Function<Request, Reply> {}

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "mock-messages-api");
        t.setDaemon(true);
        return t;
    });
    private final List<Request> requests = new ArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final CountDownLatch stallEnded = new CountDownLatch(1);
    private volatile Script script;

    private MockMessagesApi(Script script) throws IOException {
        this.script = script;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    static MockMessagesApi start(Script script) throws IOException {
        return new MockMessagesApi(script);
    }

    /** The value for {@code ANTHROPIC_BASE_URL}. */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void script(Script next) {
        this.script = next;
    }

    List<Request> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /** Waits (bounded) until at least {@code n} requests arrived; returns them. */
    List<Request> awaitRequests(int n, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (requests) {
            while (requests.size() < n) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("the mock got " + requests.size() + " of " + n + " requests");
                }
                TimeUnit.NANOSECONDS.timedWait(requests, left);
            }
            return List.copyOf(requests);
        }
    }

    /** True once a stalled stream was closed by its client (or the mock stopped) within {@code timeout}. */
    boolean awaitStallEnded(Duration timeout) throws InterruptedException {
        return stallEnded.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (!exchange.getRequestMethod().equals("POST") || !path.equals("/v1/messages")) {
                // CLI 2.1.197 sends HEAD / at every start; a 404 is harmless (PROVIDERS.md (f)).
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
            Request request = new Request(body);
            synchronized (requests) {
                requests.add(request);
                requests.notifyAll();
            }
            Reply reply = script.apply(request);
            switch (reply) {
                case Reply.Status s -> {
                    byte[] error = ("{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"mock error "
                                    + s.status() + "\"}}")
                            .getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().add("content-type", "application/json");
                    exchange.sendResponseHeaders(s.status(), error.length);
                    exchange.getResponseBody().write(error);
                }
                case Reply.Text t -> stream(exchange, textEvents(t.text(), "end_turn"), Optional.empty());
                case Reply.ToolUse u -> stream(exchange, toolUseEvents(u), Optional.empty());
                case Reply.Stall s -> stream(exchange, stallEvents(s.partial()), Optional.of(s));
            }
        }
    }

    private void stream(HttpExchange exchange, List<ObjectNode> events, Optional<Reply.Stall> stall)
            throws IOException {
        exchange.getResponseHeaders().add("content-type", "text/event-stream");
        exchange.getResponseHeaders().add("cache-control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        for (ObjectNode event : events) {
            send(out, event);
        }
        if (stall.isEmpty()) {
            return;
        }
        try {
            while (!closed.await(200, TimeUnit.MILLISECONDS)) {
                send(out, JSON.createObjectNode().put("type", "ping"));
            }
        } catch (IOException gone) {
            // the client closed the stream: what a stalled stream waits for
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stallEnded.countDown();
        }
    }

    private static void send(OutputStream out, ObjectNode event) throws IOException {
        out.write(("event: " + event.path("type").asText() + "\ndata: " + event + "\n\n")
                .getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private ObjectNode messageStart() {
        ObjectNode e = JSON.createObjectNode().put("type", "message_start");
        ObjectNode m = e.putObject("message")
                .put("id", "msg_mock_" + ids.incrementAndGet())
                .put("type", "message")
                .put("role", "assistant")
                .put("model", MODEL);
        m.putArray("content");
        m.putNull("stop_reason");
        m.putNull("stop_sequence");
        m.putObject("usage")
                .put("input_tokens", 10)
                .put("output_tokens", 1)
                .put("cache_creation_input_tokens", 0)
                .put("cache_read_input_tokens", 0);
        return e;
    }

    private static ObjectNode blockStart(int index, ObjectNode block) {
        ObjectNode e =
                JSON.createObjectNode().put("type", "content_block_start").put("index", index);
        e.set("content_block", block);
        return e;
    }

    private static ObjectNode delta(int index, ObjectNode delta) {
        ObjectNode e =
                JSON.createObjectNode().put("type", "content_block_delta").put("index", index);
        e.set("delta", delta);
        return e;
    }

    private static ObjectNode blockStop(int index) {
        return JSON.createObjectNode().put("type", "content_block_stop").put("index", index);
    }

    private static List<ObjectNode> end(String stopReason) {
        ObjectNode delta = JSON.createObjectNode().put("type", "message_delta");
        delta.putObject("delta").put("stop_reason", stopReason).putNull("stop_sequence");
        delta.putObject("usage").put("output_tokens", 7);
        return List.of(delta, JSON.createObjectNode().put("type", "message_stop"));
    }

    private List<ObjectNode> textEvents(String text, String stopReason) {
        List<ObjectNode> events = new ArrayList<>();
        events.add(messageStart());
        events.add(blockStart(0, JSON.createObjectNode().put("type", "text").put("text", "")));
        events.add(delta(0, JSON.createObjectNode().put("type", "text_delta").put("text", text)));
        events.add(blockStop(0));
        events.addAll(end(stopReason));
        return events;
    }

    private List<ObjectNode> toolUseEvents(Reply.ToolUse use) {
        List<ObjectNode> events = new ArrayList<>();
        events.add(messageStart());
        ObjectNode block = JSON.createObjectNode()
                .put("type", "tool_use")
                .put("id", use.id())
                .put("name", use.name());
        block.putObject("input");
        events.add(blockStart(0, block));
        events.add(delta(
                0,
                JSON.createObjectNode()
                        .put("type", "input_json_delta")
                        .put("partial_json", use.input().toString())));
        events.add(blockStop(0));
        events.addAll(end("tool_use"));
        return events;
    }

    private List<ObjectNode> stallEvents(String partial) {
        return List.of(
                messageStart(),
                blockStart(0, JSON.createObjectNode().put("type", "text").put("text", "")),
                delta(0, JSON.createObjectNode().put("type", "text_delta").put("text", partial)));
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
