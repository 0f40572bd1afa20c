package dev.serverfs.adapters.mcp;

import static dev.serverfs.adapters.mcp.McpTestClient.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Multi round-trip requests (2026-07-28 basic/patterns/mrtr) on a real Undertow on port 0: a tool or a prompt
 * answers {@code input_required}, the retry brings the responses and the sealed state; altered state, state of
 * another request, malformed responses and input the client cannot give are refused before the tool runs.
 */
class InputRequiredIT {

    private static final String V = "2026-07-28";

    private final Fixtures.RecordingAuditLog audit = new Fixtures.RecordingAuditLog();
    private final List<String> seenStates = new CopyOnWriteArrayList<>();
    private McpServer server;
    private McpTestClient client;

    /** Asks for a name (state "asked") when it can, greets once the user accepted. */
    private final class Greet implements McpTool {
        @Override
        public ToolSpec spec() {
            return new ToolSpec("greet", "Greet", ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM)
                    .withSchema("list_workdirs");
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            throw new IllegalStateException("answers through reply");
        }

        @Override
        public ToolReply reply(ToolArguments arguments, InputRound round) {
            seenStates.add(round.state().orElse("-"));
            Optional<Map<String, Object>> form = round.accepted("user_name");
            if (form.isPresent()) {
                return new ToolReply.Complete(
                        ToolResult.of(Map.of()).withText("Hello, " + form.get().get("name")));
            }
            InputRequest ask = InputRequest.form("What is your name?", Map.of("name", "string"));
            if (!round.canAsk(ask)) {
                return new ToolReply.Complete(ToolResult.of(Map.of()).withText("Hello, stranger"));
            }
            return InputRequired.of(Map.of("user_name", ask), "asked");
        }
    }

    /** Needs sampling whatever the client declared (the transport must refuse to send it). */
    private static final class Careless implements McpTool {
        @Override
        public ToolSpec spec() {
            return new ToolSpec("careless", "Careless", ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM)
                    .withSchema("list_workdirs");
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            throw new IllegalStateException("answers through reply");
        }

        @Override
        public ToolReply reply(ToolArguments arguments, InputRound round) {
            return InputRequired.of(Map.of("q", InputRequest.sampling("Why?", 10)));
        }
    }

    /** A prompt named like the tool that asks for a context (state "asked") until the user accepted one. */
    private PromptDefinition contextPrompt() {
        return new PromptDefinition("greet", "Greets in a context", List.of(), (arguments, round) -> {
            seenStates.add(round.state().orElse("-"));
            return round.accepted("user_context")
                    .<PromptReply>map(form -> new PromptReply.Complete(List.of(new PromptDefinition.Message(
                            PromptDefinition.Role.USER, new ContentBlock.Text("Context: " + form.get("context"))))))
                    .orElseGet(() -> InputRequired.of(
                            Map.of("user_context", InputRequest.form("Which context?", Map.of("context", "string"))),
                            "asked"));
        });
    }

    @BeforeEach
    void start() {
        server = McpServer.start(
                McpSettings.loopback(0, 64 * 1024, "mrtr"),
                audit,
                List.of(new Greet(), new Careless()),
                new McpFeatures(List.of(contextPrompt()), Optional.empty(), Optional.empty()));
        client = new McpTestClient(server.port());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> call(int id, String tool, String capabilities, String extra) {
        return send(id, "tools/call", tool, "{\"x\":1}", capabilities, extra);
    }

    private HttpResponse<String> send(
            int id, String method, String name, String arguments, String capabilities, String extra) {
        String body = """
                {"jsonrpc":"2.0","id":%d,"method":"%s","params":{"name":"%s","arguments":%s%s,\
                "_meta":{"io.modelcontextprotocol/protocolVersion":"%s",\
                "io.modelcontextprotocol/clientCapabilities":%s}}}""".formatted(id, method, name, arguments, extra, V, capabilities);
        return client.post(body, Map.of("MCP-Protocol-Version", V, "Mcp-Method", method, "Mcp-Name", name));
    }

    private HttpResponse<String> prompt(int id, String extra) {
        return send(id, "prompts/get", "greet", "{\"x\":\"1\"}", "{\"elicitation\":{}}", extra);
    }

    private static String context(String state) {
        return ",\"inputResponses\":{\"user_context\":{\"action\":\"accept\",\"content\":{\"context\":\"work\"}}},"
                + "\"requestState\":" + Json.WIRE.valueToTree(state);
    }

    private HttpResponse<String> greet(int id, String extra) {
        return call(id, "greet", "{\"elicitation\":{}}", extra);
    }

    private static String retry(String state) {
        return ",\"inputResponses\":{\"user_name\":{\"action\":\"accept\",\"content\":{\"name\":\"Alice\"}}},"
                + "\"requestState\":" + Json.WIRE.valueToTree(state);
    }

    private static JsonNode result(HttpResponse<String> response) {
        assertEquals(200, response.statusCode(), response.body());
        return json(response).get("result");
    }

    private static void assertInvalidParams(HttpResponse<String> response) {
        assertEquals(200, response.statusCode(), response.body());
        assertEquals(JsonRpc.INVALID_PARAMS, json(response).at("/error/code").intValue(), response.body());
    }

    @Test
    void a_tool_asks_for_input_and_the_retry_completes_with_the_verified_state() {
        JsonNode first = result(greet(1, ""));
        String state = first.get("requestState").textValue();
        JsonNode second = result(greet(2, retry(state)));

        assertEquals("input_required", first.get("resultType").textValue());
        assertEquals(
                "elicitation/create",
                first.at("/inputRequests/user_name/method").textValue());
        assertEquals(
                "string",
                first.at("/inputRequests/user_name/params/requestedSchema/properties/name/type")
                        .textValue());
        assertEquals("complete", second.get("resultType").textValue());
        assertEquals("Hello, Alice", second.at("/content/0/text").textValue());
        assertEquals(List.of("-", "asked"), seenStates);
        assertEquals(2, audit.events().size());
    }

    @Test
    void altered_or_foreign_state_is_refused_with_32602_before_the_tool_runs() {
        String state = result(greet(1, "")).get("requestState").textValue();
        seenStates.clear();

        assertInvalidParams(greet(2, retry(state + "-TAMPERED")));
        assertInvalidParams(greet(3, retry(state.replace('.', '-'))));
        // The same state on a call with other arguments, or of another tool, belongs to another request.
        assertInvalidParams(client.post(
                otherArguments(retry(state)),
                Map.of("MCP-Protocol-Version", V, "Mcp-Method", "tools/call", "Mcp-Name", "greet")));
        assertInvalidParams(call(5, "careless", "{\"sampling\":{}}", retry(state)));
        assertInvalidParams(greet(6, ",\"requestState\":42"));
        assertEquals(List.of(), seenStates.stream().filter(s -> !s.equals("-")).toList());
    }

    private static String otherArguments(String extra) {
        return """
                {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"greet","arguments":{"x":2}%s,\
                "_meta":{"io.modelcontextprotocol/protocolVersion":"%s",\
                "io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}""".formatted(extra, V);
    }

    @Test
    void a_prompt_asks_for_input_and_the_retry_completes_with_the_verified_state() {
        JsonNode first = result(prompt(1, ""));
        JsonNode second = result(prompt(2, context(first.get("requestState").textValue())));

        assertEquals("input_required", first.get("resultType").textValue());
        assertEquals(
                "string",
                first.at("/inputRequests/user_context/params/requestedSchema/properties/context/type")
                        .textValue());
        assertEquals("complete", second.get("resultType").textValue());
        assertEquals("Context: work", second.at("/messages/0/content/text").textValue());
        assertEquals(List.of("-", "asked"), seenStates);
    }

    @Test
    void a_state_belongs_to_its_method_so_a_prompt_state_never_opens_a_tool_call_or_back() {
        String promptState = result(prompt(1, "")).get("requestState").textValue();
        String toolState = result(send(2, "tools/call", "greet", "{\"x\":\"1\"}", "{\"elicitation\":{}}", ""))
                .get("requestState")
                .textValue();
        seenStates.clear();

        // Same name, same arguments: only the method differs.
        assertInvalidParams(
                send(3, "tools/call", "greet", "{\"x\":\"1\"}", "{\"elicitation\":{}}", retry(promptState)));
        assertInvalidParams(prompt(4, context(toolState)));
        assertInvalidParams(prompt(5, context(promptState + "-TAMPERED")));
        assertEquals(List.of(), seenStates);
    }

    @Test
    void a_prompt_never_asks_a_client_that_cannot_answer() {
        HttpResponse<String> stateless = send(1, "prompts/get", "greet", "{}", "{}", "");
        String id = client.initialize("2025-11-25");
        client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", McpTestClient.session(id));
        JsonNode session = json(client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/get\",\"params\":{\"name\":\"greet\"}}",
                McpTestClient.session(id)));

        assertEquals(400, stateless.statusCode(), stateless.body());
        assertEquals(
                McpDispatcher.MISSING_REQUIRED_CLIENT_CAPABILITY,
                json(stateless).at("/error/code").intValue());
        assertEquals(JsonRpc.INVALID_REQUEST, session.at("/error/code").intValue(), session.toString());
    }

    @Test
    void malformed_input_responses_are_refused_and_unknown_keys_are_ignored() {
        assertInvalidParams(greet(1, ",\"inputResponses\":null"));
        assertInvalidParams(greet(2, ",\"inputResponses\":[]"));
        assertInvalidParams(greet(3, ",\"inputResponses\":{\"user_name\":12345}"));

        JsonNode extra = result(greet(
                4,
                ",\"inputResponses\":{\"user_name\":{\"action\":\"accept\",\"content\":{\"name\":\"Bo\"}},"
                        + "\"other\":{\"action\":\"accept\",\"content\":{\"foo\":\"bar\"}}}"));
        JsonNode declined = result(greet(5, ",\"inputResponses\":{\"user_name\":{\"action\":\"decline\"}}"));

        assertEquals("Hello, Bo", extra.at("/content/0/text").textValue());
        assertEquals("input_required", declined.get("resultType").textValue(), "asks again");
    }

    @Test
    void input_the_client_did_not_declare_is_never_requested() {
        HttpResponse<String> careless = call(1, "careless", "{\"elicitation\":{}}", "");
        JsonNode polite = result(call(2, "greet", "{\"sampling\":{}}", ""));

        assertEquals(400, careless.statusCode(), careless.body());
        assertEquals(
                McpDispatcher.MISSING_REQUIRED_CLIENT_CAPABILITY,
                json(careless).at("/error/code").intValue());
        assertTrue(
                json(careless).at("/error/data/requiredCapabilities/sampling").isObject());
        assertEquals("Hello, stranger", polite.at("/content/0/text").textValue());
        assertEquals("complete", polite.get("resultType").textValue());
    }

    @Test
    void a_session_call_never_gets_input_required() {
        String id = client.initialize("2025-11-25");
        client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", McpTestClient.session(id));
        JsonNode greet = json(client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"greet\"}}",
                McpTestClient.session(id)));
        JsonNode careless = json(client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"careless\"}}",
                McpTestClient.session(id)));

        assertEquals("Hello, stranger", greet.at("/result/content/0/text").textValue(), greet.toString());
        assertFalse(greet.get("result").has("resultType"));
        assertFalse(greet.get("result").has("requestState"));
        assertEquals(JsonRpc.INVALID_REQUEST, careless.at("/error/code").intValue(), careless.toString());
    }
}
