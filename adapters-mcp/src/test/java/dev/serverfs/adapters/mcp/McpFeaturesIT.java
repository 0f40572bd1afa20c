package dev.serverfs.adapters.mcp;

import static dev.serverfs.adapters.mcp.McpTestClient.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Content blocks, progress on an SSE response, prompts, extra resources, completion and the 2026-07-28 header rules
 * ({@code Mcp-Name} Base64 sentinels, {@code Mcp-Param-*}) on a real Undertow on port 0, in both eras.
 */
class McpFeaturesIT {

    private static final String V = "2026-07-28";
    private static final String META = """
            "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",\
            "io.modelcontextprotocol/clientCapabilities":{}%s}""";
    private static final byte[] BYTES = {0, 1, 2, (byte) 0xff};

    private final List<McpServer> servers = new ArrayList<>();
    private final Fixtures.RecordingAuditLog audit = new Fixtures.RecordingAuditLog();
    private final AtomicInteger calls = new AtomicInteger();
    private final CountDownLatch answered = new CountDownLatch(1);
    private final CountDownLatch lateReported = new CountDownLatch(1);
    private final AtomicReference<Throwable> lateFailure = new AtomicReference<>();

    @AfterEach
    void stop() {
        servers.forEach(McpServer::close);
    }

    /** A test tool whose input schema is the test resource {@code schemas/<schema>.json}. */
    private record Probe(String name, String schema, Function<ToolArguments, ToolResult> handler) implements McpTool {
        @Override
        public ToolSpec spec() {
            return new ToolSpec(name, "probe " + name, ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM)
                    .withSchema(schema);
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            return handler.apply(arguments);
        }
    }

    private McpTestClient start(McpFeatures features) {
        List<McpTool> tools = List.of(
                new Probe("progress_probe", "blob_probe", a -> {
                    calls.incrementAndGet();
                    a.progress().report(1, 3.0, "one");
                    a.progress().report(2, 3.0, null);
                    a.progress().report(3, null, null);
                    return ToolResult.of(Map.of("done", true));
                }),
                new Probe(
                        "content_probe",
                        "blob_probe",
                        a -> ToolResult.of(Map.of())
                                .withContent(List.of(
                                        new ContentBlock.Text("t"),
                                        new ContentBlock.Image(BYTES, "image/png"),
                                        new ContentBlock.Audio(BYTES, "audio/wav"),
                                        new ContentBlock.Resource(
                                                new ResourceContents.Blob("x://b", "application/x", BYTES)),
                                        new ContentBlock.Resource(
                                                new ResourceContents.Text("x://t", "text/plain", "hi"))))),
                new Probe("late_probe", "blob_probe", a -> {
                    Progress progress = a.progress();
                    Thread.ofVirtual().start(() -> {
                        try {
                            answered.await();
                            progress.report(1, null, null);
                        } catch (Throwable e) {
                            lateFailure.set(e);
                        } finally {
                            lateReported.countDown();
                        }
                    });
                    return ToolResult.of(Map.of());
                }),
                new Probe("header_probe", "header_probe", a -> {
                    calls.incrementAndGet();
                    return ToolResult.of(Map.of());
                }));
        McpServer server = McpServer.start(McpSettings.loopback(0, 64 * 1024, "t"), audit, tools, features);
        servers.add(server);
        return new McpTestClient(server.port());
    }

    private static McpFeatures features() {
        PromptDefinition greet = new PromptDefinition(
                "greet",
                "Greets someone",
                List.of(new PromptDefinition.Argument("who", "whom to greet", true)),
                args -> {
                    if (args.get("who").isBlank()) {
                        throw new ServerFsException(ErrorCode.INVALID_ARGUMENTS, "who is blank");
                    }
                    return List.of(new PromptDefinition.Message(
                            PromptDefinition.Role.USER, new ContentBlock.Text("Hello " + args.get("who"))));
                });
        ResourceProvider resources = new ResourceProvider() {
            @Override
            public List<Resource> resources() {
                return List.of(new Resource("x://one", "one", "the one", "text/plain"));
            }

            @Override
            public List<Template> templates() {
                return List.of(new Template("x://{id}", "any", "any id", "text/plain"));
            }

            @Override
            public Optional<List<ResourceContents>> read(String uri) {
                return uri.equals("x://one")
                        ? Optional.of(List.of(new ResourceContents.Text(uri, "text/plain", "1")))
                        : Optional.empty();
            }
        };
        return new McpFeatures(
                List.of(greet), Optional.of(resources), Optional.of((ref, argument, value) -> List.of(value + "!")));
    }

    private static String call(int id, String tool, String arguments, String meta) {
        return "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\",\"arguments\":%s,%s}}"
                .formatted(id, tool, arguments, meta);
    }

    private static String request(int id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"%s\",\"params\":{%s}}".formatted(id, method, params);
    }

    private static String meta(String extra) {
        return META.formatted(extra);
    }

    private static Map<String, String> stateless(String method, String name) {
        Map<String, String> headers = new HashMap<>();
        headers.put("MCP-Protocol-Version", V);
        headers.put("Mcp-Method", method);
        if (name != null) {
            headers.put("Mcp-Name", name);
        }
        return headers;
    }

    /** The JSON of each {@code data:} line of an SSE body, in order. */
    private static List<JsonNode> events(HttpResponse<String> response) {
        List<JsonNode> events = new ArrayList<>();
        for (String line : response.body().split("\n")) {
            if (line.startsWith("data: ")) {
                events.add(Json.read(line.substring(6).getBytes(StandardCharsets.UTF_8)));
            }
        }
        return events;
    }

    private static void assertProgressStream(HttpResponse<String> response, JsonNode token, int id) {
        assertEquals(200, response.statusCode(), response.body());
        assertEquals(
                "text/event-stream",
                response.headers().firstValue("Content-Type").orElse(""));
        assertEquals("no", response.headers().firstValue("X-Accel-Buffering").orElse(""));
        List<JsonNode> events = events(response);
        assertEquals(4, events.size(), response.body());
        for (int i = 0; i < 3; i++) {
            assertEquals("notifications/progress", events.get(i).get("method").textValue());
            assertEquals(token, events.get(i).at("/params/progressToken"));
            assertEquals(i + 1, events.get(i).at("/params/progress").intValue());
        }
        assertEquals(3.0, events.get(0).at("/params/total").doubleValue());
        assertEquals("one", events.get(0).at("/params/message").textValue());
        assertTrue(events.get(2).at("/params/total").isMissingNode());
        assertEquals(id, events.get(3).get("id").intValue());
        assertTrue(events.get(3).at("/result/structuredContent/done").booleanValue());
    }

    @Test
    void a_progress_token_turns_the_answer_into_progress_events_then_the_response_in_both_eras() {
        McpTestClient client = start(McpFeatures.NONE);
        String session = client.initialize();

        HttpResponse<String> sessionCall = client.post(
                call(2, "progress_probe", "{}", "\"_meta\":{\"progressToken\":7}"), McpTestClient.session(session));
        HttpResponse<String> statelessCall = client.post(
                call(3, "progress_probe", "{}", meta(",\"progressToken\":\"p\"")),
                stateless("tools/call", "progress_probe"));
        HttpResponse<String> plain =
                client.post(call(4, "progress_probe", "{}", "\"_meta\":{}"), McpTestClient.session(session));

        assertProgressStream(sessionCall, Json.WIRE.getNodeFactory().numberNode(7), 2);
        assertProgressStream(statelessCall, Json.WIRE.getNodeFactory().textNode("p"), 3);
        assertEquals(
                "complete",
                events(statelessCall).get(3).at("/result/resultType").textValue());
        assertEquals(
                "application/json", plain.headers().firstValue("Content-Type").orElse(""));
        assertTrue(json(plain).at("/result/structuredContent/done").booleanValue());
        assertEquals(3, calls.get());
    }

    @Test
    void a_progress_token_on_a_tool_that_reports_nothing_gets_one_json_document() {
        McpTestClient client = start(McpFeatures.NONE);

        HttpResponse<String> response = client.post(
                call(5, "content_probe", "{}", meta(",\"progressToken\":1")), stateless("tools/call", "content_probe"));

        assertEquals(
                "application/json",
                response.headers().firstValue("Content-Type").orElse(""));
        assertEquals(5, json(response).get("id").intValue());
    }

    @Test
    void a_report_after_the_answer_is_dropped() throws InterruptedException {
        McpTestClient client = start(McpFeatures.NONE);

        HttpResponse<String> first = client.post(
                call(21, "late_probe", "{}", meta(",\"progressToken\":1")), stateless("tools/call", "late_probe"));
        answered.countDown();
        assertTrue(lateReported.await(10, TimeUnit.SECONDS));
        HttpResponse<String> second =
                client.post(call(22, "content_probe", "{}", meta("")), stateless("tools/call", "content_probe"));

        assertEquals(
                "application/json", first.headers().firstValue("Content-Type").orElse(""));
        assertEquals(null, lateFailure.get());
        assertEquals(22, json(second).get("id").intValue());
    }

    @Test
    void content_blocks_replace_the_default_content_and_keep_the_structured_payload() {
        McpTestClient client = start(McpFeatures.NONE);
        String session = client.initialize();
        String b64 = Base64.getEncoder().encodeToString(BYTES);

        HttpResponse<String> response =
                client.post(call(6, "content_probe", "{}", "\"_meta\":{}"), McpTestClient.session(session));

        assertEquals(
                "[{\"type\":\"text\",\"text\":\"t\"},"
                        + "{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"" + b64 + "\"},"
                        + "{\"type\":\"audio\",\"mimeType\":\"audio/wav\",\"data\":\"" + b64 + "\"},"
                        + "{\"type\":\"resource\",\"resource\":{\"uri\":\"x://b\",\"mimeType\":\"application/x\","
                        + "\"blob\":\"" + b64 + "\"}},"
                        + "{\"type\":\"resource\",\"resource\":{\"uri\":\"x://t\",\"mimeType\":\"text/plain\","
                        + "\"text\":\"hi\"}}]",
                json(response).at("/result/content").toString());
        assertEquals("{}", json(response).at("/result/structuredContent").toString());
    }

    @Test
    void prompts_resources_and_completion_are_announced_and_served_only_when_given() {
        McpTestClient bare = start(McpFeatures.NONE);
        McpTestClient rich = start(features());
        JsonNode bareCaps =
                json(bare.post(McpTestClient.INIT.formatted("2025-11-25"))).at("/result/capabilities");
        HttpResponse<String> richInit = rich.post(McpTestClient.INIT.formatted("2025-11-25"));
        JsonNode richCaps = json(richInit).at("/result/capabilities");
        Map<String, String> session = McpTestClient.session(
                richInit.headers().firstValue("Mcp-Session-Id").orElseThrow());
        String bareSession = bare.initialize();

        assertEquals(List.of("tools"), fieldNames(bareCaps));
        assertEquals(List.of("tools", "prompts", "resources", "completions"), fieldNames(richCaps));
        assertEquals(
                JsonRpc.METHOD_NOT_FOUND,
                json(bare.post(request(7, "prompts/list", ""), McpTestClient.session(bareSession)))
                        .at("/error/code")
                        .intValue());
        assertEquals(
                "greet",
                json(rich.post(request(8, "prompts/list", ""), session))
                        .at("/result/prompts/0/name")
                        .textValue());
        assertEquals(
                "Hello Ann",
                json(rich.post(
                                request(9, "prompts/get", "\"name\":\"greet\",\"arguments\":{\"who\":\"Ann\"}"),
                                session))
                        .at("/result/messages/0/content/text")
                        .textValue());
        for (String bad : List.of(
                "\"name\":\"nope\"",
                "\"name\":\"greet\"",
                "\"name\":\"greet\",\"arguments\":{\"who\":1}",
                "\"name\":\"greet\",\"arguments\":{\"who\":\" \"}")) {
            assertEquals(
                    JsonRpc.INVALID_PARAMS,
                    json(rich.post(request(10, "prompts/get", bad), session))
                            .at("/error/code")
                            .intValue(),
                    bad);
        }
        assertEquals(
                "ab!",
                json(rich.post(
                                request(
                                        11,
                                        "completion/complete",
                                        "\"ref\":{\"type\":\"ref/prompt\",\"name\":\"greet\"},"
                                                + "\"argument\":{\"name\":\"who\",\"value\":\"ab\"}"),
                                session))
                        .at("/result/completion/values/0")
                        .textValue());
        assertEquals(
                "x://one",
                json(rich.post(request(12, "resources/list", ""), session))
                        .at("/result/resources/0/uri")
                        .textValue());
        assertEquals(
                "x://{id}",
                json(rich.post(request(13, "resources/templates/list", ""), session))
                        .at("/result/resourceTemplates/0/uriTemplate")
                        .textValue());
        assertEquals(
                "1",
                json(rich.post(request(14, "resources/read", "\"uri\":\"x://one\""), session))
                        .at("/result/contents/0/text")
                        .textValue());
        HttpResponse<String> missing = rich.post(
                request(15, "resources/read", "\"uri\":\"x://two\"," + meta("")),
                stateless("resources/read", "x://two"));
        assertEquals(JsonRpc.INVALID_PARAMS, json(missing).at("/error/code").intValue());
        assertEquals("x://two", json(missing).at("/error/data/uri").textValue());
        JsonNode discover = json(rich.post(
                        request(16, "server/discover", meta("")), stateless("server/discover", null)))
                .at("/result/capabilities");
        assertTrue(discover.has("completions") && discover.has("prompts") && discover.has("resources"));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void an_mcp_name_may_be_a_base64_sentinel_and_a_malformed_one_is_a_header_mismatch() {
        McpTestClient client = start(McpFeatures.NONE);
        String encoded = Base64.getEncoder().encodeToString("content_probe".getBytes(StandardCharsets.UTF_8));

        HttpResponse<String> ok = client.post(
                call(17, "content_probe", "{}", meta("")), stateless("tools/call", "=?base64?" + encoded + "?="));
        HttpResponse<String> unpadded = client.post(
                call(18, "content_probe", "{}", meta("")),
                stateless("tools/call", "=?base64?" + encoded.replace("=", "") + "?="));
        HttpResponse<String> alphabet =
                client.post(call(19, "content_probe", "{}", meta("")), stateless("tools/call", "=?base64?Y29u!!!?="));

        assertEquals(200, ok.statusCode(), ok.body());
        assertFalse(json(ok).get("result").isMissingNode());
        for (HttpResponse<String> refused : List.of(unpadded, alphabet)) {
            assertEquals(400, refused.statusCode(), refused.body());
            assertEquals(
                    StatelessGate.HEADER_MISMATCH,
                    json(refused).at("/error/code").intValue());
        }
    }

    @Test
    void mcp_param_headers_must_mirror_the_annotated_arguments_before_the_tool_runs() {
        McpTestClient client = start(McpFeatures.NONE);

        int[] ok = {
            status(client, "{\"region\":\"eu\"}", Map.of("Mcp-Param-Region", "eu")),
            status(client, "{\"region\":\"Grüße\"}", Map.of("mcp-param-region", "=?base64?R3LDvMOfZQ==?=")),
            status(
                    client,
                    "{\"region\":\"eu\",\"limit\":42}",
                    Map.of("Mcp-Param-Region", "eu", "Mcp-Param-Limit", "42.0")),
            status(client, "{\"region\":\"SGk=\"}", Map.of("Mcp-Param-Region", "SGk="))
        };
        int before = calls.get();
        int[] refused = {
            status(client, "{\"region\":\"eu\"}", Map.of()),
            status(client, "{\"region\":\"eu\"}", Map.of("Mcp-Param-Region", "us")),
            status(client, "{\"region\":\"eu\"}", Map.of("Mcp-Param-Region", "=?base64?ZXU?=")),
            status(
                    client,
                    "{\"region\":\"eu\",\"limit\":42}",
                    Map.of("Mcp-Param-Region", "eu", "Mcp-Param-Limit", "41")),
            status(client, "{\"region\":\"eu\"}", Map.of("Mcp-Param-Region", "eu", "Mcp-Param-Limit", "1"))
        };

        assertEquals(List.of(200, 200, 200, 200), Arrays.stream(ok).boxed().toList());
        assertEquals(
                List.of(400, 400, 400, 400, 400), Arrays.stream(refused).boxed().toList());
        assertEquals(before, calls.get(), "a refused call never reaches the tool");
        assertEquals(4, audit.events().size(), "only the four accepted calls ran and were audited");
    }

    private int status(McpTestClient client, String arguments, Map<String, String> params) {
        Map<String, String> headers = stateless("tools/call", "header_probe");
        headers.putAll(params);
        HttpResponse<String> response = client.post(call(20, "header_probe", arguments, meta("")), headers);
        if (response.statusCode() == 400) {
            assertEquals(
                    StatelessGate.HEADER_MISMATCH,
                    json(response).at("/error/code").intValue(),
                    response.body());
        } else {
            assertFalse(json(response).at("/result/isError").asBoolean(), response.body());
        }
        return response.statusCode();
    }
}
