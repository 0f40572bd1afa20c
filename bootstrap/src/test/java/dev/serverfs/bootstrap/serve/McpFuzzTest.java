package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.application.testing.Fuzz;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Property-based fuzzing of the published MCP surface (issue 10, "Done when"): random arguments for every tool of
 * all three surfaces, and random JSON-RPC envelopes, against the real {@code serve} composition in this JVM (real
 * Undertow on loopback, the real filesystem adapter over a temporary tree). Every answer must be a JSON-RPC answer
 * (never a 5xx, never an internal error), a known tool with object arguments always a tool result, and no answer
 * may name a host path. Inputs come from a seeded {@link Fuzz} (a failure prints its seed; {@code -Dfuzz.seed=N}
 * replays it), bounded by the number of tries per property (a few seconds each). The plain {@code @Test} examples
 * are the issue's own reproductions of §2, §7 and §12-§15 over the same surface.
 */
class McpFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final AtomicLong IDS = new AtomicLong();
    /** Inputs per property; {@code -Dfuzz.tries=N} changes it for one run. */
    private static final int TRIES = 600;

    private static final String LONG_QUERY = "a".repeat(5000);
    private static final String LONG_CONTENT = "x".repeat(70_000);
    private static final List<JsonNode> ODD_NUMBERS = List.of(
            NODES.numberNode(2_147_483_648L),
            NODES.numberNode(Long.MAX_VALUE),
            NODES.numberNode(new BigInteger("99999999999999999999999999")),
            NODES.numberNode(new BigInteger("-99999999999999999999999999")),
            NODES.numberNode(new BigDecimal("1e400")),
            NODES.numberNode(new BigDecimal("2.0")),
            NODES.numberNode(1.5),
            NODES.textNode("10"));

    private static Path temp;
    private static ServeWiring serving;
    private static URI url;
    private static String session;
    private static Map<String, List<String>> toolArguments;
    private static List<String> toolNames;

    @BeforeAll
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
        toolNames = List.copyOf(toolArguments.keySet());
    }

    @AfterAll
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

    @Test
    void every_call_of_a_known_tool_is_a_tool_result_without_a_host_path(TestInfo test) {
        Fuzz.forAll(name(test), TRIES, McpFuzzTest::call, call -> {
            HttpResponse<String> response = post(call.toString(), true);

            assertEquals(200, response.statusCode(), response.body());
            JsonNode body = JSON.readTree(response.body());
            assertEquals(call.get("id").asLong(), body.path("id").asLong(-1), body::toString);
            JsonNode result = body.get("result");
            assertTrue(result != null && !body.has("error"), () -> call + " -> " + body);
            assertTrue(result.get("isError").isBoolean(), body::toString);
            assertTrue(result.get("content").size() >= 1, body::toString);
            assertNoHostPath(response.body());
        });
    }

    @Test
    void every_envelope_gets_a_json_rpc_answer_or_an_empty_accept(TestInfo test) {
        Fuzz.forAll(name(test), TRIES, McpFuzzTest::envelope, envelope -> {
            String body = envelope.body();
            HttpResponse<String> response = post(body, envelope.withSession());

            assertTrue(response.statusCode() < 500, () -> response.statusCode() + " for " + body);
            assertNoHostPath(response.body());
            if (response.body().isEmpty()) {
                assertTrue(
                        Set.of(202, 400, 404, 413).contains(response.statusCode()), () -> response.statusCode() + body);
                return;
            }
            JsonNode answer = JSON.readTree(response.body());
            assertEquals("2.0", answer.path("jsonrpc").asText(), response::body);
            assertTrue(answer.has("result") != answer.has("error"), response::body);
            if (answer.has("error")) {
                assertTrue(answer.at("/error/code").isInt(), response::body);
                assertNotEquals(-32603, answer.at("/error/code").intValue(), () -> body + " -> " + response.body());
            }
        });
    }

    // The reproductions, as fixed examples over the same HTTP surface.

    @Test
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

    @Test
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

    @Test
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

    @Test
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

    private static String name(TestInfo test) {
        return test.getTestMethod().orElseThrow().getName();
    }

    // Generators: each draws one input from the seeded source (an argument present 7 times in 10, plausible for its
    // name 4 times in 5, anything at all otherwise; an envelope well-formed 3 times in 4).

    private static ObjectNode call(Fuzz fuzz) {
        String tool = fuzz.pick(toolNames);
        ObjectNode params = NODES.objectNode().put("name", tool);
        params.set("arguments", arguments(fuzz, tool));
        return request("tools/call", params);
    }

    private static ObjectNode arguments(Fuzz fuzz, String tool) {
        List<String> names = new ArrayList<>(toolArguments.get(tool));
        names.add("wait_for_previous");
        names.add("extra");
        ObjectNode args = NODES.objectNode();
        for (String name : names) {
            if (fuzz.chance(0.7)) {
                args.set(name, argumentValue(fuzz, name));
            }
        }
        return args;
    }

    /** A value that is plausible for the argument most of the time, anything at all otherwise. */
    private static JsonNode argumentValue(Fuzz fuzz, String name) {
        return fuzz.weighted(4, () -> plausibleValue(fuzz, name), 1, () -> anyValue(fuzz, 2));
    }

    private static JsonNode plausibleValue(Fuzz fuzz, String name) {
        return switch (name) {
            case "workdir" -> text(fuzz, "ro", "rw", "nope", "", "RO");
            case "path" ->
                text(
                        fuzz,
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
            case "pattern", "glob" -> text(fuzz, "*", "*.md", "**", "*?*?*?*?*?*?*?*?z", "[", "[!a-", "{a,b}");
            case "query" -> text(fuzz, "needle", "", "alpha", "\ud800", LONG_QUERY);
            case "offset", "limit", "start_line", "max_lines", "after_event_id", "offset_bytes", "max_bytes" ->
                integer(fuzz);
            case "task_id", "continue_from_task_id" -> text(fuzz, "agt_" + "0".repeat(24), "agt_x", "../etc", "");
            case "request_id" -> text(fuzz, "req_" + "0".repeat(24), "req_", "");
            case "runtime" -> text(fuzz, "codex", "claude", "fake", "bash");
            case "profile" -> text(fuzz, "review", "workspace-write", "root");
            case "decision" -> text(fuzz, "approve_once", "deny", "cancel_task", "yes");
            case "data_base64" -> text(fuzz, "", "YWJj", "abc", "YW Jj", "YQ", "é", "AAAA====");
            case "expected_revision" -> text(fuzz, "v1:0123456789abcdef", "v1:", "");
            case "content", "message", "prompt" -> text(fuzz, "text\n", "", "\ud800", LONG_CONTENT);
            case "edits" -> edits(fuzz);
            case "answers" -> answers(fuzz);
            default -> anyValue(fuzz, 2);
        };
    }

    private static JsonNode text(Fuzz fuzz, String... values) {
        return NODES.textNode(fuzz.pick(values));
    }

    /** A small int half of the time, otherwise a number past the int and long ranges, a fraction or a string. */
    private static JsonNode integer(Fuzz fuzz) {
        return fuzz.chance(0.5) ? NODES.numberNode(fuzz.between(-3, 600)) : fuzz.pick(ODD_NUMBERS);
    }

    private static JsonNode edits(Fuzz fuzz) {
        ArrayNode edits = NODES.arrayNode();
        for (int i = fuzz.between(0, 3); i > 0; i--) {
            ObjectNode edit = NODES.objectNode();
            edit.set("old_text", text(fuzz, "one", "two", "", "absent"));
            edit.set("new_text", text(fuzz, "1", ""));
            if (fuzz.chance(0.5)) {
                edit.set("expected_count", integer(fuzz));
            }
            edits.add(edit);
        }
        return edits;
    }

    private static JsonNode answers(Fuzz fuzz) {
        ArrayNode answers = NODES.arrayNode();
        for (int i = fuzz.between(0, 2); i > 0; i--) {
            ObjectNode answer = NODES.objectNode();
            answer.set("question_id", text(fuzz, "q1", ""));
            answer.set("text", anyValue(fuzz, 1));
            answers.add(answer);
        }
        return answers;
    }

    /** Any JSON value, nested at most {@code depth} levels: a scalar half of the time, else an array or object. */
    private static JsonNode anyValue(Fuzz fuzz, int depth) {
        int kind = depth == 0 ? 0 : fuzz.between(0, 3);
        return switch (kind) {
            case 0, 1 ->
                switch (fuzz.between(0, 2)) {
                    case 0 -> NODES.textNode(fuzz.anyString(20));
                    case 1 -> integer(fuzz);
                    default -> fuzz.pick(NODES.booleanNode(true), NODES.booleanNode(false), NODES.nullNode());
                };
            case 2 -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = fuzz.between(0, 3); i > 0; i--) {
                    array.add(anyValue(fuzz, depth - 1));
                }
                yield array;
            }
            default -> NODES.objectNode().set(fuzz.pick("workdir", "path", "k", ""), anyValue(fuzz, depth - 1));
        };
    }

    /** One HTTP body for {@code POST /mcp} and whether it carries the session's headers. */
    private record Envelope(String body, boolean withSession) {}

    private static Envelope envelope(Fuzz fuzz) {
        String body = fuzz.weighted(3, () -> structured(fuzz), 1, () -> broken(fuzz));
        return new Envelope(body, fuzz.chance(0.5));
    }

    private static String structured(Fuzz fuzz) {
        ObjectNode envelope = NODES.objectNode();
        if (fuzz.chance(0.9)) {
            envelope.set("jsonrpc", text(fuzz, "2.0", "1.0"));
        }
        if (fuzz.chance(0.8)) {
            envelope.set("id", id(fuzz));
        }
        if (fuzz.chance(0.95)) {
            envelope.set("method", method(fuzz));
        }
        if (fuzz.chance(0.7)) {
            envelope.set("params", params(fuzz));
        }
        return envelope.toString();
    }

    private static JsonNode id(Fuzz fuzz) {
        return switch (fuzz.between(0, 3)) {
            case 0 -> NODES.numberNode(fuzz.anyLong());
            case 1 -> NODES.textNode(fuzz.anyString(8));
            case 2 -> fuzz.pick(NODES.nullNode(), NODES.booleanNode(true), NODES.numberNode(1.5));
            default -> anyValue(fuzz, 1);
        };
    }

    private static JsonNode method(Fuzz fuzz) {
        return fuzz.chance(0.5)
                ? text(
                        fuzz,
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
                        "x")
                : anyValue(fuzz, 0);
    }

    private static JsonNode params(Fuzz fuzz) {
        return switch (fuzz.between(0, 3)) {
            case 0 -> anyValue(fuzz, 2);
            case 1 -> call(fuzz).get("params");
            case 2 -> NODES.objectNode();
            default ->
                NODES.objectNode()
                        .put(
                                "uri",
                                fuzz.pick(
                                        "serverfs://ro/a.txt",
                                        "serverfs://ro/%zz",
                                        "serverfs://nope/x",
                                        "file:///etc/passwd"));
        };
    }

    private static String broken(Fuzz fuzz) {
        return switch (fuzz.between(0, 6)) {
            case 0 -> {
                String s = structured(fuzz);
                yield s.substring(0, s.length() / 2);
            }
            case 1 -> {
                String s = structured(fuzz);
                yield "[" + s + "," + s + "]";
            }
            case 2 -> structured(fuzz) + " trailing";
            case 3 -> structured(fuzz).replace("\"jsonrpc\"", "\"jsonrpc\":\"2.0\",\"jsonrpc\"");
            case 4 -> fuzz.pick("", "null", "[]", "{}", "\"x\"", "1", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":");
            case 5 -> {
                int n = fuzz.between(1, 3000);
                yield "[".repeat(n) + "]".repeat(n);
            }
            default -> fuzz.anyString(40);
        };
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
