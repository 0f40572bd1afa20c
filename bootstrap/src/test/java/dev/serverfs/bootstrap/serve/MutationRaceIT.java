package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mutation tools over real MCP HTTP against a real {@code serverfs serve} child: 32 concurrent
 * {@code edit_text_file} calls holding the same revision → exactly one wins, every other one is
 * {@code REVISION_CONFLICT}, and the file holds exactly one edit (reference §2.8 in-process CAS).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MutationRaceIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int CALLERS = 32;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicInteger ids = new AtomicInteger(10);
    private Path root;
    private ServeProcess serve;
    private String url;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        root = Files.createDirectories(dir.resolve("rw"));
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("WORKDIR_01_ALIAS", "rw");
        env.put("WORKDIR_01_PATH", root.toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        serve = ServeProcess.start(env);
        url = serve.awaitUrl(Duration.ofSeconds(60));
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (serve != null) {
            serve.close();
        }
    }

    private String initialize() throws Exception {
        HttpResponse<String> response = post(
                null,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"race\",\"version\":\"1\"}}}");
        assertEquals(200, response.statusCode(), response.body());
        String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
        post(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return session;
    }

    private HttpResponse<String> post(String session, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The {@code result} of a {@code tools/call}. */
    private JsonNode call(String session, String tool, ObjectNode arguments) throws Exception {
        ObjectNode request = JSON.createObjectNode();
        request.put("jsonrpc", "2.0").put("id", ids.incrementAndGet()).put("method", "tools/call");
        request.putObject("params").put("name", tool).set("arguments", arguments);
        HttpResponse<String> response = post(session, JSON.writeValueAsString(request));
        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        assertTrue(body.has("result"), response.body());
        return body.get("result");
    }

    private static String text(JsonNode result) {
        return result.get("content").get(0).get("text").asText();
    }

    private static ObjectNode args(String path) {
        return JSON.createObjectNode().put("workdir", "rw").put("path", path);
    }

    @Test
    void concurrent_edits_with_the_same_revision_have_exactly_one_winner() throws Exception {
        String session = initialize();
        JsonNode created = call(session, "create_text_file", args("race.txt").put("content", "value=start\n"));
        assertFalse(created.path("isError").asBoolean(), text(created));
        String revision = created.get("structuredContent").get("revision").asText();

        CountDownLatch go = new CountDownLatch(1);
        List<Future<JsonNode>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(CALLERS)) {
            for (int i = 0; i < CALLERS; i++) {
                ObjectNode arguments = args("race.txt").put("expected_revision", revision);
                arguments
                        .putArray("edits")
                        .addObject()
                        .put("old_text", "value=start")
                        .put("new_text", "value=" + i);
                results.add(pool.submit(() -> {
                    go.await();
                    return call(session, "edit_text_file", arguments);
                }));
            }
            go.countDown();
            int wins = 0;
            String winner = null;
            for (Future<JsonNode> f : results) {
                JsonNode result = f.get();
                if (result.path("isError").asBoolean()) {
                    assertTrue(text(result).startsWith("REVISION_CONFLICT: rw:race.txt"), text(result));
                } else {
                    wins++;
                    JsonNode payload = result.get("structuredContent");
                    assertEquals(revision, payload.get("revision_before").asText());
                    winner = payload.get("diff").asText();
                }
            }
            assertEquals(1, wins, "exactly one edit wins");
            String content = Files.readString(root.resolve("race.txt"));
            assertTrue(content.matches("value=([0-9]|[12][0-9]|3[01])\n"), content);
            assertTrue(winner.contains("+" + content), winner);
        }
        try (var entries = Files.list(root)) {
            assertEquals(
                    List.of(),
                    entries.map(p -> p.getFileName().toString())
                            .filter(n -> n.startsWith(".serverfs-tmp-"))
                            .toList(),
                    "no temp entry is left behind");
        }
    }

    @Test
    void tools_list_publishes_the_mutation_tools_with_the_reference_annotations() throws Exception {
        String session = initialize();
        HttpResponse<String> response = post(session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        Map<String, JsonNode> tools = new HashMap<>();
        JSON.readTree(response.body())
                .get("result")
                .get("tools")
                .forEach(t -> tools.put(t.get("name").asText(), t));
        // name → destructive, idempotent (reference §2.0); all readOnly=false, openWorld=false
        Map<String, boolean[]> expected = Map.of(
                "create_text_file", new boolean[] {false, false},
                "edit_text_file", new boolean[] {true, true},
                "delete_file", new boolean[] {true, true},
                "create_directory", new boolean[] {false, true},
                "delete_directory", new boolean[] {true, true});
        expected.forEach((name, hints) -> {
            JsonNode a = tools.get(name).get("annotations");
            assertFalse(a.get("readOnlyHint").asBoolean(), name);
            assertEquals(hints[0], a.get("destructiveHint").asBoolean(), name);
            assertEquals(hints[1], a.get("idempotentHint").asBoolean(), name);
            assertFalse(a.get("openWorldHint").asBoolean(), name);
        });
        assertEquals(11, tools.size(), tools.keySet().toString());
    }

    @Test
    void a_dry_run_over_mcp_returns_the_diff_and_writes_nothing() throws Exception {
        String session = initialize();
        JsonNode created = call(session, "create_text_file", args("dry.txt").put("content", "a\n"));
        String revision = created.get("structuredContent").get("revision").asText();
        ObjectNode arguments =
                args("dry.txt").put("expected_revision", revision).put("dry_run", true);
        arguments.putArray("edits").addObject().put("old_text", "a").put("new_text", "b");
        JsonNode result = call(session, "edit_text_file", arguments);
        assertFalse(result.path("isError").asBoolean(), text(result));
        assertEquals(
                "@@ -1 +1 @@\n-a\n+b\n",
                result.get("structuredContent").get("diff").asText());
        assertTrue(result.get("structuredContent").get("dry_run").asBoolean());
        assertEquals("a\n", Files.readString(root.resolve("dry.txt")));
    }
}
