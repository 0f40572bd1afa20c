package dev.serverfs.adapters.mcp;

import static dev.serverfs.adapters.mcp.McpTestClient.json;
import static dev.serverfs.adapters.mcp.McpTestClient.session;
import static dev.serverfs.adapters.mcp.McpTestClient.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Streamable HTTP transport rules, each against a real Undertow on port 0 over real HTTP. */
class McpServerIT {

    private static final long LIMIT = 64 * 1024;
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}";

    private final List<McpServer> servers = new ArrayList<>();
    private final Fixtures.RecordingAuditLog audit = new Fixtures.RecordingAuditLog();
    private final List<Boolean> virtualThreads = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(McpServer::close);
    }

    private McpTestClient start(McpSettings settings) {
        McpServer server = McpServer.start(
                settings, audit, List.of(Fixtures.listWorkdirsTool(), new ThreadProbeTool(virtualThreads)));
        servers.add(server);
        return new McpTestClient(server.port());
    }

    private McpTestClient start() {
        return start(McpSettings.loopback(0, LIMIT, "9.8.7-test"));
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> copy = new HashMap<>(base);
        copy.put(key, value);
        return copy;
    }

    // --- lifecycle -------------------------------------------------------------------------------------------

    @Test
    void initialize_opens_a_session_and_describes_the_server() {
        McpTestClient client = start();

        HttpResponse<String> response = client.post(McpTestClient.INIT.formatted("2025-11-25"));

        assertEquals(200, response.statusCode());
        assertEquals(
                "application/json",
                response.headers().firstValue("Content-Type").orElseThrow());
        String sessionId = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertTrue(sessionId.matches("[\\x21-\\x7e]{32,}"), sessionId);
        JsonNode result = json(response).get("result");
        assertEquals(1, json(response).get("id").intValue());
        assertEquals("2025-11-25", result.get("protocolVersion").textValue());
        assertEquals("ServerFS", result.at("/serverInfo/name").textValue());
        assertEquals("9.8.7-test", result.at("/serverInfo/version").textValue());
        assertTrue(result.at("/capabilities/tools").isObject());
        String instructions = result.get("instructions").textValue();
        assertTrue(instructions.contains("list_workdirs"), instructions);
        assertTrue(instructions.contains("untrusted"), instructions);
        assertTrue(instructions.contains("no shell"), instructions);
    }

    @Test
    void initialize_echoes_each_supported_version_and_answers_an_unknown_one_with_the_latest() {
        McpTestClient client = start();
        for (String version : List.of("2025-11-25", "2025-06-18", "2025-03-26")) {
            HttpResponse<String> response = client.post(McpTestClient.INIT.formatted(version));
            assertEquals(version, json(response).at("/result/protocolVersion").textValue());
        }

        HttpResponse<String> unknown = client.post(McpTestClient.INIT.formatted("1999-01-01"));

        assertEquals("2025-11-25", json(unknown).at("/result/protocolVersion").textValue());
    }

    @Test
    void initialize_without_a_protocol_version_is_invalid_params_and_opens_no_session() {
        HttpResponse<String> response =
                start().post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");

        assertEquals(-32602, json(response).at("/error/code").intValue());
        assertTrue(response.headers().firstValue("Mcp-Session-Id").isEmpty());
    }

    @Test
    void notifications_and_client_responses_get_202_with_no_body() {
        McpTestClient client = start();
        String id = client.initialize();

        HttpResponse<String> notification =
                client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session(id));
        HttpResponse<String> clientResponse =
                client.post("{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"result\":{}}", session(id));

        assertEquals(202, notification.statusCode());
        assertEquals("", notification.body());
        assertEquals(202, clientResponse.statusCode());
        assertEquals("", clientResponse.body());
    }

    @Test
    void ping_answers_an_empty_result_with_the_request_id() {
        McpTestClient client = start();
        String id = client.initialize();

        HttpResponse<String> response =
                client.post("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"ping\"}", session(id));

        assertEquals(200, response.statusCode());
        assertEquals(
                json(response),
                Json.WIRE
                        .createObjectNode()
                        .put("jsonrpc", "2.0")
                        .put("id", "abc")
                        .set("result", Json.object()));
    }

    // --- sessions -------------------------------------------------------------------------------------------

    @Test
    void a_request_without_a_session_id_is_400() {
        HttpResponse<String> response = start().post(PING, Map.of("MCP-Protocol-Version", "2025-11-25"));

        assertEquals(400, response.statusCode());
        assertEquals(-32600, json(response).at("/error/code").intValue());
    }

    @Test
    void an_unknown_session_id_is_404() {
        HttpResponse<String> response = start().post(PING, session("no-such-session"));

        assertEquals(404, response.statusCode());
    }

    @Test
    void delete_ends_a_session_and_later_requests_get_404() {
        McpTestClient client = start();
        String id = client.initialize();

        HttpResponse<String> deleted = client.request("DELETE", "/mcp", session(id));
        HttpResponse<String> after = client.post(PING, session(id));
        HttpResponse<String> deletedAgain = client.request("DELETE", "/mcp", session(id));

        assertEquals(200, deleted.statusCode());
        assertEquals(404, after.statusCode());
        assertEquals(404, deletedAgain.statusCode());
    }

    @Test
    void delete_without_a_session_id_is_400() {
        assertEquals(400, start().request("DELETE", "/mcp", Map.of()).statusCode());
    }

    @Test
    void a_session_expires_after_its_idle_timeout_on_the_injected_clock() {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        McpTestClient client = start(McpSettings.loopback(0, LIMIT, "t").withSessions(Duration.ofMinutes(10), clock));
        String id = client.initialize();
        // A client's first request follows its initialize at once; a never-used session expires in a minute.
        assertEquals(200, client.post(PING, session(id)).statusCode());

        clock.advance(Duration.ofMinutes(9));
        HttpResponse<String> stillAlive = client.post(PING, session(id));
        clock.advance(Duration.ofMinutes(9));
        HttpResponse<String> usedRecently = client.post(PING, session(id));
        clock.advance(Duration.ofMinutes(10));
        HttpResponse<String> expired = client.post(PING, session(id));

        assertEquals(200, stillAlive.statusCode());
        assertEquals(200, usedRecently.statusCode());
        assertEquals(404, expired.statusCode());
    }

    // --- headers --------------------------------------------------------------------------------------------

    @Test
    void an_unsupported_protocol_version_header_is_400() {
        McpTestClient client = start();
        String id = client.initialize();

        HttpResponse<String> response = client.post(PING, with(session(id), "MCP-Protocol-Version", "1999-01-01"));

        assertEquals(400, response.statusCode());
    }

    @Test
    void two_protocol_version_headers_are_400_whatever_the_first_says() {
        McpTestClient client = start();
        String id = client.initialize();
        String host = "127.0.0.1:" + client.uri("/").getPort();

        String two = client.rawPost(
                host,
                "Mcp-Session-Id: " + id
                        + "\r\nMCP-Protocol-Version: 2025-11-25\r\nMCP-Protocol-Version: 1999-01-01\r\n",
                PING);
        String one = client.rawPost(host, "Mcp-Session-Id: " + id + "\r\nMCP-Protocol-Version: 2025-11-25\r\n", PING);

        assertEquals(400, McpTestClient.status(two));
        assertEquals(200, McpTestClient.status(one));
    }

    @Test
    void a_missing_protocol_version_header_means_2025_03_26_and_is_accepted() {
        McpTestClient client = start();
        String id = client.initialize();

        HttpResponse<String> missing = client.post(PING, Map.of("Mcp-Session-Id", id));
        HttpResponse<String> older = client.post(PING, with(session(id), "MCP-Protocol-Version", "2025-06-18"));

        assertEquals(200, missing.statusCode());
        assertEquals(200, older.statusCode());
    }

    @Test
    void accept_without_event_stream_is_406() {
        McpTestClient client = start();
        String id = client.initialize();

        HttpResponse<String> jsonOnly = client.post(PING, with(session(id), "Accept", "application/json"));
        HttpResponse<String> sseOnly = client.post(PING, with(session(id), "Accept", "text/event-stream"));
        HttpResponse<String> wildcard = client.post(PING, with(session(id), "Accept", "*/*"));

        assertEquals(406, jsonOnly.statusCode());
        assertEquals(406, sseOnly.statusCode());
        assertEquals(200, wildcard.statusCode());
    }

    @Test
    void a_body_that_is_not_application_json_is_415() {
        McpTestClient client = start();
        String id = client.initialize();

        HttpResponse<String> response = client.post(PING, with(session(id), "Content-Type", "text/plain"));
        HttpResponse<String> withCharset =
                client.post(PING, with(session(id), "Content-Type", "application/json; charset=utf-8"));

        assertEquals(415, response.statusCode());
        assertEquals(200, withCharset.statusCode());
    }

    // --- JSON-RPC envelopes ---------------------------------------------------------------------------------

    @Test
    void a_batch_array_is_rejected_with_400_invalid_request() {
        McpTestClient client = start();
        String id = client.initialize();

        HttpResponse<String> response = client.post("[" + PING + "," + PING + "]", session(id));

        assertEquals(400, response.statusCode());
        assertEquals(-32600, json(response).at("/error/code").intValue());
        assertTrue(json(response).get("id").isNull());
    }

    @Test
    void unparseable_json_is_400_parse_error() {
        McpTestClient client = start();
        String id = client.initialize();

        HttpResponse<String> truncated = client.post("{\"jsonrpc\": \"2.0\", \"id\": 8, \"method\": ", session(id));
        HttpResponse<String> empty = client.post("", session(id));

        assertEquals(400, truncated.statusCode());
        assertEquals(-32700, json(truncated).at("/error/code").intValue());
        assertEquals(-32700, json(empty).at("/error/code").intValue());
    }

    @Test
    void a_duplicate_key_at_any_depth_is_400_parse_error() {
        McpTestClient client = start();
        String id = client.initialize();

        HttpResponse<String> top =
                client.post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\",\"id\":9}", session(id));
        HttpResponse<String> nested = client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\",\"params\":{\"_meta\":{\"a\":1,\"b\":2,\"a\":1}}}",
                session(id));

        assertEquals(400, top.statusCode());
        assertEquals(-32700, json(top).at("/error/code").intValue());
        assertEquals(400, nested.statusCode());
        assertEquals(-32700, json(nested).at("/error/code").intValue());
    }

    @Test
    void an_invalid_envelope_is_400_invalid_request_with_its_id() {
        McpTestClient client = start();
        String id = client.initialize();

        HttpResponse<String> wrongVersion =
                client.post("{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"ping\"}", session(id));
        HttpResponse<String> nullId = client.post("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", session(id));

        assertEquals(400, wrongVersion.statusCode());
        assertEquals(-32600, json(wrongVersion).at("/error/code").intValue());
        assertEquals(5, json(wrongVersion).get("id").intValue());
        assertEquals(400, nullId.statusCode());
    }

    @Test
    void an_unknown_method_is_method_not_found() {
        McpTestClient client = start();
        String id = client.initialize();

        HttpResponse<String> response =
                client.post("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"no/such/method\"}", session(id));

        assertEquals(200, response.statusCode());
        assertEquals(-32601, json(response).at("/error/code").intValue());
        assertEquals(6, json(response).get("id").intValue());
    }

    @Test
    void get_on_the_endpoint_is_405_with_allow() {
        McpTestClient client = start();
        String id = client.initialize();

        HttpResponse<String> response = client.request("GET", "/mcp", with(session(id), "Accept", "text/event-stream"));

        assertEquals(405, response.statusCode());
        assertEquals("POST, DELETE", response.headers().firstValue("Allow").orElseThrow());
    }

    // --- Host, Origin, token --------------------------------------------------------------------------------

    @Test
    void a_foreign_host_is_421_before_any_dispatch() {
        McpTestClient client = start();
        int port = client.uri("/").getPort();

        String evil = client.rawPost("evil.example.com:" + port, "", McpTestClient.INIT.formatted("2025-11-25"));
        String wrongPort = client.rawPost("127.0.0.1:1", "", McpTestClient.INIT.formatted("2025-11-25"));
        String unknownSession = client.rawPost("evil.example.com", "Mcp-Session-Id: nope\r\n", PING);

        assertEquals(421, status(evil), evil);
        assertFalse(evil.contains("Mcp-Session-Id"), evil);
        assertEquals(421, status(wrongPort), wrongPort);
        assertEquals(421, status(unknownSession), "Host is checked before the session: " + unknownSession);
    }

    @Test
    void loopback_names_and_configured_hosts_are_accepted() {
        McpTestClient client =
                start(McpSettings.loopback(0, LIMIT, "t").withAllowLists(Set.of("serverfs-mcp:8000"), Set.of()));
        int port = client.uri("/").getPort();
        String init = McpTestClient.INIT.formatted("2025-11-25");

        for (String host : List.of(
                "127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port, "LOCALHOST:" + port, "serverfs-mcp:8000")) {
            String response = client.rawPost(host, "", init);
            assertEquals(200, status(response), host + " -> " + response);
        }
        assertEquals(421, status(client.rawPost("serverfs-mcp:8001", "", init)));
    }

    @Test
    void a_foreign_origin_is_403_and_own_or_configured_origins_pass() {
        McpTestClient client =
                start(McpSettings.loopback(0, LIMIT, "t").withAllowLists(Set.of(), Set.of("https://ChatGPT.example")));
        int port = client.uri("/").getPort();
        String init = McpTestClient.INIT.formatted("2025-11-25");

        HttpResponse<String> evil = client.post(init, Map.of("Origin", "http://evil.example.com"));
        HttpResponse<String> nullOrigin = client.post(init, Map.of("Origin", "null"));
        HttpResponse<String> own = client.post(init, Map.of("Origin", "http://127.0.0.1:" + port));
        HttpResponse<String> configured = client.post(init, Map.of("Origin", "https://chatgpt.example"));
        HttpResponse<String> anyCase = client.post(init, Map.of("Origin", "HTTPS://ChatGPT.Example"));
        HttpResponse<String> absent = client.post(init);

        assertEquals(403, evil.statusCode());
        assertTrue(evil.headers().firstValue("Mcp-Session-Id").isEmpty());
        assertEquals(403, nullOrigin.statusCode());
        assertEquals(200, own.statusCode());
        assertEquals(200, configured.statusCode());
        assertEquals(200, anyCase.statusCode());
        assertEquals(200, absent.statusCode());
    }

    @Test
    void a_configured_token_is_required_as_bearer() {
        McpTestClient client = start(McpSettings.loopback(0, LIMIT, "t").withAuthToken("s3cret-token"));
        String init = McpTestClient.INIT.formatted("2025-11-25");

        HttpResponse<String> none = client.post(init);
        HttpResponse<String> wrong = client.post(init, Map.of("Authorization", "Bearer s3cret-tokeN"));
        HttpResponse<String> basic = client.post(init, Map.of("Authorization", "Basic s3cret-token"));
        HttpResponse<String> right = client.post(init, Map.of("Authorization", "Bearer s3cret-token"));

        assertEquals(401, none.statusCode());
        assertEquals("Bearer", none.headers().firstValue("WWW-Authenticate").orElseThrow());
        assertFalse(none.body().contains("s3cret"));
        assertEquals(401, wrong.statusCode());
        assertEquals(401, basic.statusCode());
        assertEquals(200, right.statusCode());
    }

    // --- body limit -----------------------------------------------------------------------------------------

    @Test
    void a_declared_body_over_the_limit_is_413() {
        McpTestClient client = start();
        String id = client.initialize();
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\""
                + "x".repeat((int) LIMIT) + "\"}}";

        HttpResponse<String> response = client.post(big, session(id));

        assertEquals(413, response.statusCode());
        assertEquals(-32600, json(response).at("/error/code").intValue());
    }

    @Test
    void a_chunked_body_over_the_limit_is_413_too() {
        McpTestClient client = start();
        String id = client.initialize();
        int port = client.uri("/").getPort();
        StringBuilder request = new StringBuilder("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nAccept: " + McpTestClient.ACCEPT + "\r\nContent-Type: application/json\r\nMcp-Session-Id: " + id
                + "\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
        String chunk = "x".repeat(8192);
        for (int i = 0; i < (LIMIT / chunk.length()) + 2; i++) {
            request.append(Integer.toHexString(chunk.length()))
                    .append("\r\n")
                    .append(chunk)
                    .append("\r\n");
        }
        request.append("0\r\n\r\n");

        String response = client.raw(request.toString().getBytes(StandardCharsets.ISO_8859_1));

        assertEquals(413, status(response), response.lines().findFirst().orElse(""));
    }

    @Test
    void a_body_just_under_the_limit_is_read_and_dispatched() {
        McpTestClient client = start();
        String id = client.initialize();
        String prefix = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"";
        String suffix = "\"}}";
        String body = prefix + "x".repeat((int) LIMIT - prefix.length() - suffix.length()) + suffix;

        HttpResponse<String> response = client.post(body, session(id));

        assertEquals(LIMIT, body.length());
        assertEquals(200, response.statusCode());
    }

    // --- health ---------------------------------------------------------------------------------------------

    @Test
    void healthz_answers_ok_without_host_checks_or_sessions() {
        McpTestClient client = start();

        HttpResponse<String> response = client.request("GET", "/healthz", Map.of());
        String foreignHost = client.raw(("GET /healthz HTTP/1.1\r\nHost: anything\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));

        assertEquals(200, response.statusCode());
        assertEquals("ok", response.body());
        assertEquals(200, status(foreignHost));
        assertEquals(404, client.request("GET", "/other", Map.of()).statusCode());
    }

    // --- tools ----------------------------------------------------------------------------------------------

    @Test
    void tools_list_publishes_list_workdirs_with_its_annotations() {
        McpTestClient client = start();
        String id = client.initialize();

        JsonNode tools = json(client.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", session(id)))
                .at("/result/tools");
        HttpResponse<String> badCursor = client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{\"cursor\":\"zz\"}}", session(id));

        assertEquals("list_workdirs", tools.get(0).get("name").textValue());
        assertEquals("object", tools.get(0).at("/inputSchema/type").textValue());
        assertTrue(tools.get(0).at("/annotations/readOnlyHint").booleanValue());
        assertFalse(tools.get(0).at("/annotations/openWorldHint").booleanValue());
        assertEquals(-32602, json(badCursor).at("/error/code").intValue());
    }

    @Test
    void tools_call_runs_list_workdirs_on_a_virtual_thread_and_audits_once() throws Exception {
        McpTestClient client = start();
        String id = client.initialize();

        JsonNode result = json(client.post(
                        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"list_workdirs\","
                                + "\"arguments\":{}}}",
                        session(id)))
                .get("result");
        client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"thread_probe\"}}",
                session(id));

        assertEquals(2, result.at("/structuredContent/workdirs").size());
        assertEquals(
                result.get("structuredContent"),
                Json.WIRE.readTree(result.at("/content/0/text").textValue()));
        assertEquals(List.of(true), virtualThreads);
        assertEquals(2, audit.events().size());
        assertEquals("list_workdirs", audit.events().getFirst().tool());
    }

    @Test
    void tools_call_with_an_unknown_tool_is_invalid_params_and_unknown_arguments_are_ignored() {
        McpTestClient client = start();
        String id = client.initialize();

        JsonNode extraArgs = json(client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"list_workdirs\","
                        + "\"arguments\":{\"wait_for_previous\":true}}}",
                session(id)));
        JsonNode badArgs = json(client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"list_workdirs\","
                        + "\"arguments\":[1]}}",
                session(id)));
        JsonNode unknown = json(client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}",
                session(id)));
        JsonNode noName = json(
                client.post("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{}}", session(id)));

        assertFalse(extraArgs.at("/result/isError").booleanValue(), extraArgs.toString());
        assertEquals(-32602, badArgs.at("/error/code").intValue());
        assertEquals(-32602, unknown.at("/error/code").intValue());
        assertEquals(-32602, noName.at("/error/code").intValue());
        assertNotEquals(null, badArgs.get("id"));
    }

    @Test
    void resources_are_listed_empty() {
        McpTestClient client = start();
        String id = client.initialize();

        JsonNode resources =
                json(client.post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"resources/list\"}", session(id)));
        JsonNode templates = json(
                client.post("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"resources/templates/list\"}", session(id)));

        assertEquals(0, resources.at("/result/resources").size());
        assertTrue(resources.at("/result/resources").isArray());
        assertTrue(templates.at("/result/resourceTemplates").isArray());
    }

    /** Records whether it runs on a virtual thread. */
    static final class ThreadProbeTool implements McpTool {
        private final List<Boolean> seen;

        ThreadProbeTool(List<Boolean> seen) {
            this.seen = seen;
        }

        @Override
        public ToolSpec spec() {
            return new ToolSpec("thread_probe", "Test probe.", ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM);
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            seen.add(Thread.currentThread().isVirtual());
            return ToolResult.of(Map.of("ok", true));
        }
    }
}
