package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.fs.linux.OpenFlags;
import dev.serverfs.adapters.fs.linux.Syscalls;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10 §1, §3, §4c and §8 through the published MCP surface of a real {@code serverfs serve} child: a
 * pathological glob or ignore rule answers within the search deadline and never wedges other calls, a directory
 * chain thousands deep gives a clean truncated result, a huge matched line comes back capped, and a path with an
 * unpaired UTF-16 surrogate is refused instead of naming another file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileFilesystemInputIT {

    /** Escapes every non-ASCII character, so an unpaired surrogate travels as {@code \ud800}, not as {@code ?}. */
    private static final ObjectMapper ESCAPING =
            JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    private static final int SEARCH_TIMEOUT_SECONDS = 10;
    private static final String LONG_NAME = "a".repeat(60);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicLong ids = new AtomicLong(1000);
    private Path root;
    private ServeProcess serve;
    private McpTestClient client;
    private URI url;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        root = Files.createDirectories(dir.resolve("hostile"));
        Files.createDirectories(root.resolve("repo/.git"));
        Files.writeString(root.resolve("repo/.gitignore"), "*a*a*a*a*a*b\n");
        Files.writeString(root.resolve("repo/" + LONG_NAME + ".txt"), "needle in repo\n");
        Files.writeString(root.resolve("repo/" + LONG_NAME.substring(1) + "c"), "needle again\n");
        Files.writeString(root.resolve("x.pe?"), "the file a broken encoder would name\n");
        Files.writeString(
                root.resolve("huge.txt"), "y".repeat(5 << 20) + "needle in a huge line" + "z".repeat(5 << 20) + "\n");
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_SEARCH_TIMEOUT_SECONDS", Integer.toString(SEARCH_TIMEOUT_SECONDS));
        env.put("WORKDIR_01_ALIAS", "wd");
        env.put("WORKDIR_01_PATH", root.toString());
        serve = ServeProcess.start(env);
        url = URI.create(serve.awaitUrl(Duration.ofSeconds(60)));
        client = new McpTestClient(url.toString());
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (serve != null) {
            serve.close();
        }
    }

    @Test
    void pathological_globs_and_ignore_rules_answer_within_the_search_deadline_and_wedge_nothing() throws Exception {
        Map<String, Object> glob = Map.of("workdir", "wd", "query", "needle", "glob", "*?*?*?*?*?*?*?*?z");
        Map<String, Object> plain = Map.of("workdir", "wd", "query", "needle", "path", "repo");
        long started = System.nanoTime();
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            // More pathological calls than the host has cores: before the fix these spun for hours each.
            List<Future<McpTestClient.ToolCall>> calls = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                calls.add(callers.submit(() -> client.call("search_text", glob)));
            }
            calls.add(callers.submit(() -> client.call("search_text", plain)));
            Duration budget = Duration.ofSeconds(SEARCH_TIMEOUT_SECONDS + 20);
            for (int i = 0; i < 3; i++) {
                JsonNode result =
                        calls.get(i).get(budget.toSeconds(), TimeUnit.SECONDS).ok();
                assertEquals(0, result.get("returned").intValue(), result.toString());
            }
            JsonNode repo =
                    calls.get(3).get(budget.toSeconds(), TimeUnit.SECONDS).ok();
            assertEquals(2, repo.get("returned").intValue(), "the planted rule ignores neither file: " + repo);
            assertTrue(
                    client.call("list_workdirs", Map.of()).ok().get("workdirs").size() == 1);
            JsonNode found = client.call("find_files", Map.of("workdir", "wd", "pattern", "*a*a*a*a*a*a*a*a*a*a*b"))
                    .ok();
            assertEquals(0, found.get("returned").intValue());
        } finally {
            callers.shutdownNow();
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        assertTrue(seconds < SEARCH_TIMEOUT_SECONDS + 20, "took " + seconds + " s");
    }

    @Test
    void a_directory_chain_thousands_deep_gives_a_clean_truncated_result() throws Exception {
        chain("deep", 3000, "bottom.txt", "needle at the bottom\n");
        try {
            JsonNode found = client.call("find_files", Map.of("workdir", "wd", "pattern", "*.txt", "limit", 100))
                    .ok();
            assertTrue(found.get("truncated").booleanValue(), found.toString());
            List<String> paths = new ArrayList<>();
            found.get("matches").forEach(m -> paths.add(m.get("path").textValue()));
            assertTrue(paths.contains("huge.txt"), paths.toString());
            assertFalse(paths.stream().anyMatch(p -> p.endsWith("bottom.txt")), "beyond the walk depth");
            JsonNode searched = client.call("search_text", Map.of("workdir", "wd", "query", "needle", "limit", 100))
                    .ok();
            assertTrue(searched.get("truncated").booleanValue(), "directories left out make it truncated");
            List<String> hits = new ArrayList<>();
            searched.get("matches").forEach(m -> hits.add(m.get("path").textValue()));
            assertTrue(hits.contains("huge.txt"), "one deep chain must not break a whole-workdir search: " + hits);
        } finally {
            Process rm = new ProcessBuilder("rm", "-rf", "--", "deep")
                    .directory(root.toFile())
                    .inheritIO()
                    .start();
            assertTrue(rm.waitFor(60, TimeUnit.SECONDS), "rm did not finish");
        }
    }

    @Test
    void a_huge_matched_line_comes_back_capped() throws Exception {
        ObjectNode arguments = ESCAPING.createObjectNode()
                .put("workdir", "wd")
                .put("query", "needle in a huge")
                .put("path", "");
        HttpResponse<String> response = post(toolCall("search_text", arguments));
        assertEquals(200, response.statusCode());
        assertTrue(
                response.body().length() < 16 * 1024,
                "response of " + response.body().length() + " chars");
        JsonNode match = result(response).at("/structuredContent/matches/0");
        assertEquals("huge.txt", match.get("path").textValue());
        assertTrue(match.get("text_truncated").booleanValue());
        String text = match.get("text").textValue();
        assertTrue(text.contains("yneedle in a huge linez"), "the match with context");
        assertTrue(text.getBytes(StandardCharsets.UTF_8).length <= 1024, "capped at 1 KiB");
    }

    @Test
    void an_unpaired_surrogate_is_refused_before_policy_and_never_names_another_file() throws Exception {
        assertEquals("ACCESS_DENIED", code(call("read_text_file", "path", "x.pe\udfff")));
        assertEquals("ACCESS_DENIED", code(call("read_text_file", "path", "\ud800")));
        assertEquals("ACCESS_DENIED", code(call("stat_file", "path", "x.pe\udfff")));
        assertEquals("ACCESS_DENIED", code(call("list_directory", "path", "\ud800")));
        ObjectNode find = ESCAPING.createObjectNode().put("workdir", "wd").put("pattern", "x.pe\udfff");
        assertEquals("INVALID_ARGUMENTS", code(result(post(toolCall("find_files", find)))));
        ObjectNode search = ESCAPING.createObjectNode().put("workdir", "wd").put("query", "\ud800");
        assertEquals("INVALID_ARGUMENTS", code(result(post(toolCall("search_text", search)))));
        ObjectNode workdir =
                ESCAPING.createObjectNode().put("workdir", "\ud800").put("path", "x");
        assertEquals("WORKDIR_NOT_FOUND", code(result(post(toolCall("read_text_file", workdir)))));
        // The file whose name the broken encoding would have produced is still readable by its own name.
        assertFalse(call("read_text_file", "path", "x.pe?").path("isError").asBoolean(false));
    }

    private JsonNode call(String tool, String key, String value) throws IOException, InterruptedException {
        ObjectNode arguments = ESCAPING.createObjectNode().put("workdir", "wd").put(key, value);
        return result(post(toolCall(tool, arguments)));
    }

    private ObjectNode toolCall(String tool, ObjectNode arguments) {
        ObjectNode request = ESCAPING.createObjectNode();
        request.put("jsonrpc", "2.0");
        request.put("id", ids.incrementAndGet());
        request.put("method", "tools/call");
        request.putObject("params").put("name", tool).set("arguments", arguments);
        return request;
    }

    private HttpResponse<String> post(ObjectNode body) throws IOException, InterruptedException {
        String json = ESCAPING.writeValueAsString(body);
        assertTrue(StandardCharsets.US_ASCII.newEncoder().canEncode(json), "the request travels as ASCII");
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-06-18")
                .header("Mcp-Session-Id", client.session())
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The JSON-RPC result of a tools/call: HTTP 200 with a JSON body, never an empty 500. */
    private static JsonNode result(HttpResponse<String> response) throws IOException {
        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = ESCAPING.readTree(response.body());
        assertFalse(body.has("error"), body.toString());
        return body.get("result");
    }

    private static String code(JsonNode result) {
        assertTrue(result.path("isError").asBoolean(false), "expected a tool error: " + result);
        String text = result.at("/content/0/text").textValue();
        return text.substring(0, text.indexOf(':'));
    }

    /** {@code depth} directories below {@code top}, built one descriptor at a time (the path outgrows PATH_MAX). */
    private void chain(String top, int depth, String file, String content) throws Exception {
        int fd = Syscalls.openat(OpenFlags.AT_FDCWD, root.toString(), OpenFlags.O_RDONLY | OpenFlags.O_DIRECTORY, 0);
        try {
            for (int i = 0; i < depth; i++) {
                String name = i == 0 ? top : "d";
                Syscalls.mkdirat(fd, name, 0755);
                int child = Syscalls.openat(fd, name, OpenFlags.O_RDONLY | OpenFlags.O_DIRECTORY, 0);
                Syscalls.close(fd);
                fd = child;
            }
            Files.writeString(Path.of("/proc/self/fd/" + fd).resolve(file), content);
        } finally {
            Syscalls.close(fd);
        }
    }
}
