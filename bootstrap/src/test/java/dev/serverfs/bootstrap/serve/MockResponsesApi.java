package dev.serverfs.bootstrap.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An in-JVM mock of the OpenAI Responses API for the real Codex CLI (PROVIDERS.md Part 1 (f)): {@code POST
 * /v1/responses} answered by a per-test {@link Script} as SSE, on a {@link MockModelServer} (127.0.0.1, an
 * ephemeral port). Every request body is recorded, so a test can assert on what reached "the model". {@link
 * Reply.Stall} streams a first text delta and then holds the stream open until the client closes it; {@link
 * Reply.Slow} does the same until {@link #release} and then completes its message.
 */
final class MockResponsesApi implements ProviderWorld.MockModel {
    /** What the mock answers to one request. */
    sealed interface Reply {
        record Text(String text) implements Reply {}

        /**
         * A {@code function_call} of one of the tools Codex offered ({@code exec_command}, ...); a name {@code
         * <namespace>.<tool>} calls a tool of a namespace ({@code multi_agent_v1.spawn_agent}).
         */
        record Call(String callId, String name, JsonNode arguments) implements Reply {}

        record Status(int status) implements Reply {}

        record Stall(String partial) implements Reply {}

        record Slow(String partial, String text) implements Reply {}
    }

    /** One recorded {@code /v1/responses} request. */
    record Request(JsonNode body) {
        /** The text of the last user message. */
        String lastUserText() {
            String text = "";
            for (JsonNode item : body.path("input")) {
                if (item.path("type").asText().equals("message")
                        && item.path("role").asText().equals("user")) {
                    for (JsonNode c : item.path("content")) {
                        if (c.path("type").asText().equals("input_text")) {
                            text = c.path("text").asText();
                        }
                    }
                }
            }
            return text;
        }

        /** The output Codex sent back for tool call {@code callId}, anywhere in the input. */
        Optional<JsonNode> callOutput(String callId) {
            for (JsonNode item : body.path("input")) {
                if (item.path("type").asText().endsWith("call_output")
                        && item.path("call_id").asText().equals(callId)) {
                    return Optional.of(item);
                }
            }
            return Optional.empty();
        }

        /** The whole body as text (history assertions). */
        String text() {
            return body.toString();
        }
    }

    /** Chooses the reply to each request. */
    interface Script extends Function<Request, Reply> {}

    private final MockModelServer server;
    private final AtomicInteger ids = new AtomicInteger();
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile Script script;

    private MockResponsesApi(Script script) throws IOException {
        this.script = script;
        server = new MockModelServer("mock-responses-api", "/v1/responses", this::answer);
    }

    static MockResponsesApi start(Script script) throws IOException {
        return new MockResponsesApi(script);
    }

    /** The {@code base_url} of the mock provider in Codex's config ({@code POST {base_url}/responses}). */
    String baseUrl() {
        return server.origin() + "/v1";
    }

    /** Answers every {@code GET} of {@code path} with {@code json} ({@link MockModelServer#serve}). */
    void serve(String path, String json) {
        server.serve(path, json);
    }

    /** Answers {@code path} as an MCP server listing {@code tools} ({@link MockModelServer#mcp}). */
    void mcp(String path, String tools) throws IOException {
        server.mcp(path, tools);
    }

    /** {@code http://127.0.0.1:<port>}. */
    String origin() {
        return server.origin();
    }

    List<Request> requests() {
        return server.bodies().stream().map(Request::new).toList();
    }

    List<Request> awaitRequests(int n, Duration timeout) throws InterruptedException {
        return server.awaitBodies(n, timeout).stream().map(Request::new).toList();
    }

    boolean awaitStallEnded(Duration timeout) throws InterruptedException {
        return server.awaitHoldEnded(timeout);
    }

    /** Lets every {@link Reply.Slow} stream complete. */
    void release() {
        released.countDown();
    }

    private void answer(JsonNode body, MockModelServer.Exchange exchange) throws IOException {
        Reply reply = script.apply(new Request(body));
        String id = "resp_" + ids.incrementAndGet();
        switch (reply) {
            case Reply.Status s ->
                exchange.status(
                        s.status(),
                        "{\"error\":{\"type\":\"server_error\",\"message\":\"mock error " + s.status() + "\"}}");
            case Reply.Text t -> {
                MockModelServer.Sse sse = exchange.sse();
                sse.event(created(id));
                sse.event(message(id, t.text()));
                sse.event(completed(id));
            }
            case Reply.Call c -> {
                MockModelServer.Sse sse = exchange.sse();
                sse.event(created(id));
                ObjectNode done = event("response.output_item.done");
                ObjectNode item = done.putObject("item")
                        .put("type", "function_call")
                        .put("id", "fc_" + id)
                        .put("call_id", c.callId());
                int dot = c.name().indexOf('.');
                if (dot > 0) { // a tool of a namespace Codex offered (multi_agent_v1.spawn_agent)
                    item.put("namespace", c.name().substring(0, dot));
                }
                item.put("name", c.name().substring(dot + 1))
                        .put("arguments", c.arguments().toString());
                sse.event(done);
                sse.event(completed(id));
            }
            case Reply.Stall s -> {
                MockModelServer.Sse sse = start(exchange.heldSse(), id, s.partial());
                sse.hold(": keep-alive\n\n");
            }
            case Reply.Slow s -> {
                MockModelServer.Sse sse = start(exchange.sse(), id, s.partial());
                try {
                    while (!released.await(200, TimeUnit.MILLISECONDS)) {
                        sse.event(delta(id, "."));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                sse.event(message(id, s.text()));
                sse.event(completed(id));
            }
        }
    }

    private static MockModelServer.Sse start(MockModelServer.Sse sse, String id, String partial) throws IOException {
        sse.event(created(id));
        ObjectNode added = event("response.output_item.added");
        ObjectNode item = added.putObject("item")
                .put("type", "message")
                .put("role", "assistant")
                .put("id", "msg_" + id);
        item.putArray("content");
        sse.event(added);
        sse.event(delta(id, partial));
        return sse;
    }

    private static ObjectNode event(String type) {
        return MockModelServer.JSON.createObjectNode().put("type", type);
    }

    private static ObjectNode created(String id) {
        ObjectNode e = event("response.created");
        e.putObject("response").put("id", id);
        return e;
    }

    private static ObjectNode delta(String id, String text) {
        return event("response.output_text.delta")
                .put("item_id", "msg_" + id)
                .put("output_index", 0)
                .put("content_index", 0)
                .put("delta", text);
    }

    private static ObjectNode message(String id, String text) {
        ObjectNode e = event("response.output_item.done");
        ObjectNode item = e.putObject("item")
                .put("type", "message")
                .put("role", "assistant")
                .put("id", "msg_" + id);
        item.putArray("content").addObject().put("type", "output_text").put("text", text);
        return e;
    }

    private static ObjectNode completed(String id) {
        ObjectNode e = event("response.completed");
        e.putObject("response")
                .put("id", id)
                .putObject("usage")
                .put("input_tokens", 10)
                .put("output_tokens", 5)
                .put("total_tokens", 15);
        return e;
    }

    static JsonNode json(String text) {
        return MockModelServer.json(text);
    }

    @Override
    public void close() {
        release();
        server.close();
    }
}
