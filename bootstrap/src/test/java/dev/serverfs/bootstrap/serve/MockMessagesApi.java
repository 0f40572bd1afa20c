package dev.serverfs.bootstrap.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An in-JVM mock of the Anthropic Messages API for the real Claude Code CLI (PROVIDERS.md Part 2 (f)): {@code POST
 * /v1/messages} answered by a per-test {@link Script} as SSE with the {@code event:} lines the CLI requires, on a
 * {@link MockModelServer} (127.0.0.1, an ephemeral port). Every request body is recorded, so a test can assert on what reached "the model".
 * {@link Reply.Stall} streams a first text delta and then holds the stream open (with {@code ping} events, so a
 * client that goes away is noticed) until the client closes it or the mock stops.
 */
final class MockMessagesApi implements ProviderWorld.MockModel {
    private static final ObjectMapper JSON = MockModelServer.JSON;
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

    /** One tool call of a scripted turn, {@code id} its {@code tool_use} id. */
    record Call(String id, String tool, JsonNode input) {
        /** A {@code Bash} call of {@code command}. */
        static Call bash(String id, String command) {
            return command(id, "Bash", command);
        }

        /** A call of {@code tool} ({@code Bash}, {@code Monitor}) running {@code command}. */
        static Call command(String id, String tool, String command) {
            return new Call(
                    id, tool, JSON.createObjectNode().put("command", command).put("description", "x"));
        }

        /** A call of {@code tool} with {@code input}, a JSON object's text. */
        static Call of(String id, String tool, String input) {
            return new Call(id, tool, json(input));
        }
    }

    /** Makes {@code calls} one after the other, each once the previous one's result is in, then answers {@code done}. */
    static Script calls(String done, Call... calls) {
        return r -> {
            for (Call c : calls) {
                if (r.toolResult(c.id()).isEmpty()) {
                    return new Reply.ToolUse(c.id(), c.tool(), c.input());
                }
            }
            return new Reply.Text(done);
        };
    }

    private final MockModelServer server;
    private final AtomicInteger ids = new AtomicInteger();
    private volatile Script script;

    private MockMessagesApi(Script script) throws IOException {
        this.script = script;
        // CLI 2.1.197 sends HEAD / at every start; the 404 for it is harmless (PROVIDERS.md (f)).
        server = new MockModelServer("mock-messages-api", "/v1/messages", this::answer);
    }

    static MockMessagesApi start(Script script) throws IOException {
        return new MockMessagesApi(script);
    }

    /** The value for {@code ANTHROPIC_BASE_URL}. */
    String baseUrl() {
        return server.origin();
    }

    void script(Script next) {
        this.script = next;
    }

    List<Request> requests() {
        return server.bodies().stream().map(Request::new).toList();
    }

    /** Waits (bounded) until at least {@code n} requests arrived; returns them. */
    List<Request> awaitRequests(int n, Duration timeout) throws InterruptedException {
        return server.awaitBodies(n, timeout).stream().map(Request::new).toList();
    }

    /** True once a stalled stream was closed by its client (or the mock stopped) within {@code timeout}. */
    boolean awaitStallEnded(Duration timeout) throws InterruptedException {
        return server.awaitHoldEnded(timeout);
    }

    private void answer(JsonNode body, MockModelServer.Exchange exchange) throws IOException {
        Reply reply = script.apply(new Request(body));
        switch (reply) {
            case Reply.Status s ->
                exchange.status(
                        s.status(),
                        "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"mock error " + s.status()
                                + "\"}}");
            case Reply.Text t -> stream(exchange, textEvents(t.text(), "end_turn"), false);
            case Reply.ToolUse u -> stream(exchange, toolUseEvents(u), false);
            case Reply.Stall s -> stream(exchange, stallEvents(s.partial()), true);
        }
    }

    private static void stream(MockModelServer.Exchange exchange, List<ObjectNode> events, boolean hold)
            throws IOException {
        MockModelServer.Sse sse = hold ? exchange.heldSse() : exchange.sse();
        for (ObjectNode event : events) {
            sse.event(event);
        }
        if (hold) {
            sse.hold("event: ping\ndata: {\"type\":\"ping\"}\n\n");
        }
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
        return MockModelServer.json(text);
    }

    @Override
    public void close() {
        server.close();
    }
}
