package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.bootstrap.config.ConfigLoader;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Property-based fuzzing of the published MCP surface (issue 10, "Done when"): random arguments for every tool of
 * all three surfaces, and random JSON-RPC envelopes, against the real {@code serve} composition in this JVM (real
 * Undertow on loopback, the real filesystem adapter over a temporary tree). Every answer must be a JSON-RPC answer
 * (never a 5xx, never an internal error), a known tool with object arguments always a tool result, and no answer
 * may name a host path. Bounded by the number of tries per property (a few seconds each). The {@code @Example}s are
 * the issue's own reproductions of §2, §7 and §12-§15 over the same surface.
 */
class McpFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final AtomicLong IDS = new AtomicLong();

    private static Path temp;
    private static ServeWiring serving;
    private static URI url;
    private static String session;
    private static Map<String, List<String>> toolArguments;

    @BeforeContainer
    static void start() throws Exception {
        temp = Files.createTempDirectory("serverfs-fuzz");
        Path ro = Files.createDirectories(temp.resolve("hostdir-7f3a-ro"));
        Path rw = Files.createDirectories(temp.resolve("hostdir-7f3a-rw"));
        Files.writeString(ro.resolve("a.txt"), "alpha\nbeta\n");
        Files.createDirectories(ro.resolve("sub/deeper"));
        Files.writeString(ro.resolve("sub/deeper/b.md"), "needle\n");
        Files.write(ro.resolve("bin.dat"), new byte[] {0, 1, 2, (byte) 0xff});
        Files.createSymbolicLink(ro.resolve("out"), temp);
        Files.writeString(rw.resolve("edit.txt"), "one two\n");
        Path deep = rw;
        for (int i = 0; i < 300; i++) {
            deep = deep.resolve("d");
        }
        Files.createDirectories(deep);
        Path locks = temp.resolve("locks");
        // The lease owner's job (the Bridge): MCP mutations take these flocks but never create them.
        new FlockWriterLeases(locks).prepare();
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_SEARCH_TIMEOUT_SECONDS", "5");
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_LOCK_DIR", locks.toString());
        env.put("WORKDIR_01_ALIAS", "ro");
        env.put("WORKDIR_01_PATH", ro.toString());
        env.put("WORKDIR_02_ALIAS", "rw");
        env.put("WORKDIR_02_PATH", rw.toString());
        env.put("WORKDIR_02_READ_ONLY", "false");
        env.put("WORKDIR_02_BINARY_TRANSFER_ENABLED", "true");
        env.put("WORKDIR_02_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_02_AGENT_RUNTIMES", "codex");
        serving = ServeWiring.start(ConfigLoader.load(env, Optional.empty()));
        url = URI.create(serving.server().endpoint());
        session = initialize();
        toolArguments = new LinkedHashMap<>();
        JsonNode tools =
                rpc(request("tools/list", NODES.objectNode())).get("result").get("tools");
        for (JsonNode tool : tools) {
            List<String> names = new ArrayList<>();
            tool.at("/inputSchema/properties").fieldNames().forEachRemaining(names::add);
            toolArguments.put(tool.get("name").textValue(), names);
        }
        assertEquals(22, toolArguments.size(), toolArguments.keySet().toString());
    }

    @AfterContainer
    static void stop() throws IOException {
        if (serving != null) {
            serving.close();
        }
        if (temp != null) {
            try (Stream<Path> all = Files.walk(temp)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    @Property(tries = 600)
    void every_call_of_a_known_tool_is_a_tool_result_without_a_host_path(@ForAll("calls") ObjectNode call)
            throws Exception {
        HttpResponse<String> response = post(call.toString(), true);

        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        assertEquals(call.get("id").asLong(), body.path("id").asLong(-1), body::toString);
        JsonNode result = body.get("result");
        assertTrue(result != null && !body.has("error"), () -> call + " -> " + body);
        assertTrue(result.get("isError").isBoolean(), body::toString);
        assertTrue(result.get("content").size() >= 1, body::toString);
        assertNoHostPath(response.body());
    }

    @Property(tries = 600)
    void every_envelope_gets_a_json_rpc_answer_or_an_empty_accept(
            @ForAll("envelopes") String body, @ForAll boolean withSession) throws Exception {
        HttpResponse<String> response = post(body, withSession);

        assertTrue(response.statusCode() < 500, () -> response.statusCode() + " for " + body);
        assertNoHostPath(response.body());
        if (response.body().isEmpty()) {
            assertTrue(Set.of(202, 400, 404, 413).contains(response.statusCode()), () -> response.statusCode() + body);
            return;
        }
        JsonNode answer = JSON.readTree(response.body());
        assertEquals("2.0", answer.path("jsonrpc").asText(), response::body);
        assertTrue(answer.has("result") != answer.has("error"), response::body);
        if (answer.has("error")) {
            assertTrue(answer.at("/error/code").isInt(), response::body);
            assertNotEquals(-32603, answer.at("/error/code").intValue(), () -> body + " -> " + response.body());
        }
    }

    // The reproductions, as fixed examples over the same HTTP surface.

    @Example
    void integers_past_2_31_clamp_or_read_past_the_end() throws Exception {
        // Issue 10 §7: these answered -32603 with a stack trace in the log.
        JsonNode page = toolResult(
                "list_directory", "{\"workdir\":\"ro\",\"offset\":2147483648,\"limit\":99999999999999999999}");
        assertEquals(0, page.at("/structuredContent/returned").intValue(), page::toString);
        assertEquals(500, page.at("/structuredContent/limit").intValue(), "clamped to the contract's 500");
        assertFalse(page.at("/structuredContent/has_more").booleanValue());
        JsonNode read = toolResult(
                "read_text_file",
                "{\"workdir\":\"ro\",\"path\":\"a.txt\",\"start_line\":2147483648,\"max_lines\":1e300}");
        assertEquals("", read.at("/structuredContent/content").textValue(), read::toString);
        assertEquals(2147483647L, read.at("/structuredContent/end_line").longValue());
    }

    @Example
    void unknown_arguments_are_ignored_and_known_ones_of_the_wrong_type_are_invalid_arguments_results()
            throws Exception {
        // Issue 10 §12 (Gemini CLI's wait_for_previous) and §13 (SEP-1303).
        JsonNode read =
                toolResult("read_text_file", "{\"workdir\":\"ro\",\"path\":\"a.txt\",\"wait_for_previous\":true}");
        assertEquals("alpha\nbeta\n", read.at("/structuredContent/content").textValue(), read::toString);
        JsonNode wrong = toolResult("list_directory", "{\"workdir\":\"ro\",\"limit\":\"ten\"}");
        assertTrue(wrong.get("isError").booleanValue());
        assertTrue(wrong.at("/content/0/text").textValue().startsWith("INVALID_ARGUMENTS: "), wrong::toString);
        JsonNode unknown = rpc(JSON.readValue(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"rm\",\"arguments\":{}}}",
                ObjectNode.class));
        assertEquals(-32602, unknown.at("/error/code").intValue(), unknown::toString);
    }

    @Example
    void invalid_base64_is_a_coded_tool_error_not_a_500() throws Exception {
        // Issue 10 §2: the audit log refused the code INVALID_BASE64 (a digit) and the exception escaped.
        for (String data : List.of("abc", "YW Jj", "YQ", "é")) {
            JsonNode upload = toolResult(
                    "upload_binary_file",
                    JSON.createObjectNode()
                            .put("workdir", "rw")
                            .put("path", "up.bin")
                            .put("data_base64", data)
                            .toString());
            assertTrue(upload.at("/content/0/text").textValue().startsWith("INVALID_BASE64: "), upload::toString);
        }
    }

    @Example
    void download_also_returns_its_metadata_as_json_text_and_tools_carry_titles() throws Exception {
        // Issue 10 §14 and §15.
        Files.write(temp.resolve("hostdir-7f3a-rw/blob.bin"), new byte[] {1, 2, 3});
        JsonNode download = toolResult("download_binary_file", "{\"workdir\":\"rw\",\"path\":\"blob.bin\"}");
        assertEquals("resource", download.at("/content/0/type").textValue(), download::toString);
        assertEquals(
                download.get("structuredContent"),
                JSON.readTree(download.at("/content/1/text").textValue()));
        assertEquals(3, download.at("/structuredContent/size").intValue());
        JsonNode tools = rpc(request("tools/list", NODES.objectNode())).at("/result/tools");
        for (JsonNode tool : tools) {
            assertFalse(tool.path("title").asText().isBlank(), tool.get("name").textValue());
        }
        JsonNode templates = rpc(request("resources/templates/list", NODES.objectNode()));
        assertEquals(
                "serverfs://{workdir}/{+path}",
                templates.at("/result/resourceTemplates/0/uriTemplate").textValue());
    }

    private static JsonNode toolResult(String tool, String arguments) throws Exception {
        ObjectNode params = NODES.objectNode().put("name", tool);
        params.set("arguments", JSON.readTree(arguments));
        JsonNode answer = rpc(request("tools/call", params));
        assertTrue(answer.has("result"), answer::toString);
        return answer.get("result");
    }

    @Provide
    Arbitrary<ObjectNode> calls() {
        return Arbitraries.of(toolArguments.keySet())
                .flatMap(tool -> arguments(tool).map(args -> {
                    ObjectNode params = NODES.objectNode().put("name", tool);
                    params.set("arguments", args);
                    return request("tools/call", params);
                }));
    }

    private Arbitrary<ObjectNode> arguments(String tool) {
        List<String> names = new ArrayList<>(toolArguments.get(tool));
        names.add("wait_for_previous");
        names.add("extra");
        List<Arbitrary<Optional<JsonNode>>> each =
                names.stream().map(name -> argumentValue(name).optional(0.7)).toList();
        return Combinators.combine(each).as(values -> {
            ObjectNode args = NODES.objectNode();
            for (int i = 0; i < names.size(); i++) {
                Optional<JsonNode> value = values.get(i);
                if (value.isPresent()) {
                    args.set(names.get(i), value.get());
                }
            }
            return args;
        });
    }

    /** A value that is plausible for the argument most of the time, anything at all otherwise. */
    private Arbitrary<JsonNode> argumentValue(String name) {
        Arbitrary<JsonNode> plausible = switch (name) {
            case "workdir" -> strings("ro", "rw", "nope", "", "RO");
            case "path" ->
                strings(
                        "",
                        ".",
                        "a.txt",
                        "sub",
                        "sub/deeper/b.md",
                        "..",
                        "../x",
                        "/etc/passwd",
                        "out",
                        "out/a.txt",
                        "bin.dat",
                        "edit.txt",
                        "new.txt",
                        "d/d/d",
                        "a\u0000b",
                        "x.pe\udfff",
                        "\ud800",
                        ".serverfs-tmp-0123456789abcdef",
                        "sub/../a.txt");
            case "pattern", "glob" -> strings("*", "*.md", "**", "*?*?*?*?*?*?*?*?z", "[", "[!a-", "{a,b}");
            case "query" -> strings("needle", "", "alpha", "\ud800", "a".repeat(5000));
            case "offset", "limit", "start_line", "max_lines", "after_event_id", "offset_bytes", "max_bytes" ->
                integers();
            case "task_id", "continue_from_task_id" -> strings("agt_" + "0".repeat(24), "agt_x", "../etc", "");
            case "request_id" -> strings("req_" + "0".repeat(24), "req_", "");
            case "runtime" -> strings("codex", "claude", "fake", "bash");
            case "profile" -> strings("review", "workspace-write", "root");
            case "decision" -> strings("approve_once", "deny", "cancel_task", "yes");
            case "data_base64" -> strings("", "YWJj", "abc", "YW Jj", "YQ", "é", "AAAA====");
            case "expected_revision" -> strings("v1:0123456789abcdef", "v1:", "");
            case "content", "message", "prompt" -> strings("text\n", "", "\ud800", "x".repeat(70_000));
            case "edits" -> edits();
            case "answers" -> answers();
            default -> anyValue(2);
        };
        return Arbitraries.frequencyOf(Tuple.of(4, plausible), Tuple.of(1, anyValue(2)));
    }

    private static Arbitrary<JsonNode> strings(String... values) {
        return Arbitraries.of(values).map(NODES::textNode);
    }

    private static Arbitrary<JsonNode> integers() {
        return Arbitraries.oneOf(
                Arbitraries.integers().between(-3, 600).map(i -> (JsonNode) NODES.numberNode(i)),
                Arbitraries.of(
                        NODES.numberNode(2_147_483_648L),
                        NODES.numberNode(Long.MAX_VALUE),
                        NODES.numberNode(new BigInteger("99999999999999999999999999")),
                        NODES.numberNode(new BigInteger("-99999999999999999999999999")),
                        NODES.numberNode(new BigDecimal("1e400")),
                        NODES.numberNode(new BigDecimal("2.0")),
                        NODES.numberNode(1.5),
                        NODES.textNode("10")));
    }

    private static Arbitrary<JsonNode> edits() {
        Arbitrary<JsonNode> edit = Combinators.combine(
                        strings("one", "two", "", "absent"),
                        strings("1", ""),
                        integers().optional(0.5))
                .as((oldText, newText, count) -> {
                    ObjectNode e = NODES.objectNode();
                    e.set("old_text", oldText);
                    e.set("new_text", newText);
                    count.ifPresent(c -> e.set("expected_count", c));
                    return e;
                });
        return edit.list().ofMaxSize(3).map(list -> NODES.arrayNode().addAll(list));
    }

    private static Arbitrary<JsonNode> answers() {
        Arbitrary<JsonNode> answer = Combinators.combine(strings("q1", ""), anyValue(1))
                .as((id, text) -> {
                    ObjectNode a = NODES.objectNode();
                    a.set("question_id", id);
                    a.set("text", text);
                    return a;
                });
        return answer.list().ofMaxSize(2).map(list -> NODES.arrayNode().addAll(list));
    }

    /** Any JSON value, nested at most {@code depth} levels. */
    private static Arbitrary<JsonNode> anyValue(int depth) {
        Arbitrary<JsonNode> scalar = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(20).map(NODES::textNode),
                integers(),
                Arbitraries.of(NODES.booleanNode(true), NODES.booleanNode(false), NODES.nullNode()));
        if (depth == 0) {
            return scalar;
        }
        Arbitrary<JsonNode> array = anyValue(depth - 1)
                .list()
                .ofMaxSize(3)
                .map(list -> NODES.arrayNode().addAll(list));
        Arbitrary<JsonNode> object = Combinators.combine(
                        Arbitraries.of("workdir", "path", "k", ""), anyValue(depth - 1))
                .as((k, v) -> (JsonNode) NODES.objectNode().set(k, v));
        return Arbitraries.oneOf(scalar, scalar, array, object);
    }

    @Provide
    Arbitrary<String> envelopes() {
        Arbitrary<JsonNode> id = Arbitraries.oneOf(
                Arbitraries.longs().map(NODES::numberNode),
                Arbitraries.strings().ofMaxLength(8).map(NODES::textNode),
                Arbitraries.of(NODES.nullNode(), NODES.booleanNode(true), NODES.numberNode(1.5)),
                anyValue(1));
        Arbitrary<JsonNode> method = Arbitraries.oneOf(
                strings(
                        "initialize",
                        "ping",
                        "tools/list",
                        "tools/call",
                        "resources/read",
                        "resources/templates/list",
                        "resources/list",
                        "notifications/initialized",
                        "prompts/list",
                        "",
                        "x"),
                anyValue(0));
        Arbitrary<JsonNode> params = Arbitraries.oneOf(
                anyValue(2),
                calls().map(c -> c.get("params")),
                Arbitraries.create(NODES::objectNode),
                Arbitraries.of("serverfs://ro/a.txt", "serverfs://ro/%zz", "serverfs://nope/x", "file:///etc/passwd")
                        .map(uri -> NODES.objectNode().put("uri", uri)));
        Arbitrary<String> structured = Combinators.combine(
                        strings("2.0", "1.0").optional(0.9),
                        id.optional(0.8),
                        method.optional(0.95),
                        params.optional(0.7))
                .as((jsonrpc, i, m, p) -> {
                    ObjectNode e = NODES.objectNode();
                    jsonrpc.ifPresent(v -> e.set("jsonrpc", v));
                    i.ifPresent(v -> e.set("id", v));
                    m.ifPresent(v -> e.set("method", v));
                    p.ifPresent(v -> e.set("params", v));
                    return e.toString();
                });
        Arbitrary<String> broken = Arbitraries.oneOf(
                structured.map(s -> s.substring(0, s.length() / 2)),
                structured.map(s -> "[" + s + "," + s + "]"),
                structured.map(s -> s + " trailing"),
                structured.map(s -> s.replace("\"jsonrpc\"", "\"jsonrpc\":\"2.0\",\"jsonrpc\"")),
                Arbitraries.of("", "null", "[]", "{}", "\"x\"", "1", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"),
                Arbitraries.integers().between(1, 3000).map(n -> "[".repeat(n) + "]".repeat(n)),
                Arbitraries.strings().ofMaxLength(40));
        return Arbitraries.frequencyOf(Tuple.of(3, structured), Tuple.of(1, broken));
    }

    private static void assertNoHostPath(String body) {
        assertFalse(body.contains(temp.toString()), body);
        assertFalse(body.contains("hostdir-7f3a"), body);
    }

    private static ObjectNode request(String method, ObjectNode params) {
        return McpTestClient.request(IDS.incrementAndGet(), method, params);
    }

    private static String initialize() throws Exception {
        HttpResponse<String> response = post(
                request("initialize", McpTestClient.initializeParams("2025-11-25", "fuzz"))
                        .toString(),
                false);
        return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private static JsonNode rpc(ObjectNode request) throws Exception {
        return JSON.readTree(post(request.toString(), true).body());
    }

    private static HttpResponse<String> post(String body, boolean withSession)
            throws IOException, InterruptedException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(url)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (withSession && session != null) {
            builder.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
        }
        return HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }
}
