package dev.serverfs.adapters.mcp;

import static dev.serverfs.adapters.mcp.McpTestClient.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The 2026-07-28 (stateless) era beside the 2025-11-25 sessions, on a real Undertow on port 0. */
class StatelessEraIT {

    private static final String V = "2026-07-28";
    private static final String META = """
            "_meta":{"io.modelcontextprotocol/protocolVersion":"%s",\
            "io.modelcontextprotocol/clientCapabilities":{}}""";

    private final List<McpServer> servers = new ArrayList<>();
    private final Fixtures.RecordingAuditLog audit = new Fixtures.RecordingAuditLog();

    @AfterEach
    void stop() {
        servers.forEach(McpServer::close);
    }

    private McpTestClient start(McpSettings settings) {
        McpServer server = McpServer.start(settings, audit, List.of(Fixtures.listWorkdirsTool()));
        servers.add(server);
        return new McpTestClient(server.port());
    }

    private McpTestClient start() {
        return start(McpSettings.loopback(0, 64 * 1024, "9.8.7-test"));
    }

    private static String request(int id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"%s\",\"params\":{%s}}".formatted(id, method, params);
    }

    private static String meta(String version) {
        return META.formatted(version);
    }

    private static Map<String, String> headers(String method, String name) {
        Map<String, String> headers = new HashMap<>();
        headers.put("MCP-Protocol-Version", V);
        headers.put("Mcp-Method", method);
        if (name != null) {
            headers.put("Mcp-Name", name);
        }
        return headers;
    }

    private static void assertError(HttpResponse<String> response, int status, int id, int code) {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals(id, json(response).get("id").intValue(), response.body());
        assertEquals(code, json(response).at("/error/code").intValue(), response.body());
        assertTrue(response.headers().firstValue("Mcp-Session-Id").isEmpty());
    }

    @Test
    void discover_lists_both_eras_capabilities_server_info_and_caching_hints_without_a_session() {
        McpTestClient client = start();

        HttpResponse<String> response =
                client.post(request(3, "server/discover", meta(V)), headers("server/discover", null));

        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Mcp-Session-Id").isEmpty());
        JsonNode result = json(response).get("result");
        assertEquals(
                List.of("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"),
                Json.WIRE.convertValue(result.get("supportedVersions"), List.class));
        assertTrue(result.at("/capabilities/tools").isObject());
        assertEquals(
                "ServerFS",
                result.at("/_meta/io.modelcontextprotocol~1serverInfo/name").textValue());
        assertEquals(
                "9.8.7-test",
                result.at("/_meta/io.modelcontextprotocol~1serverInfo/version").textValue());
        assertEquals("complete", result.get("resultType").textValue());
        assertEquals(McpDispatcher.LIST_TTL_MS, result.get("ttlMs").longValue());
        assertEquals("private", result.get("cacheScope").textValue());
    }

    @Test
    void tools_are_listed_and_called_statelessly_with_result_type_and_one_audit_event() {
        McpTestClient client = start();

        HttpResponse<String> list = client.post(request(4, "tools/list", meta(V)), headers("tools/list", null));
        HttpResponse<String> call = client.post(
                request(5, "tools/call", "\"name\":\"list_workdirs\",\"arguments\":{}," + meta(V)),
                headers("tools/call", "list_workdirs"));

        assertEquals(200, list.statusCode(), list.body());
        assertEquals("list_workdirs", json(list).at("/result/tools/0/name").textValue());
        assertEquals("private", json(list).at("/result/cacheScope").textValue());
        assertEquals(200, call.statusCode(), call.body());
        assertEquals("complete", json(call).at("/result/resultType").textValue());
        assertFalse(json(call).at("/result/isError").asBoolean());
        assertTrue(json(call).at("/result/ttlMs").isMissingNode());
        assertEquals(1, audit.events().size());
    }

    @Test
    void client_info_is_optional_but_version_and_capabilities_are_required() {
        McpTestClient client = start();
        Map<String, String> discover = headers("server/discover", null);

        assertError(client.post(request(6, "server/discover", ""), discover), 400, 6, JsonRpc.INVALID_PARAMS);
        assertError(
                client.post(
                        request(
                                7,
                                "server/discover",
                                "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + V + "\"}"),
                        discover),
                400,
                7,
                JsonRpc.INVALID_PARAMS);
    }

    @Test
    void header_and_body_versions_must_agree_and_an_unsupported_version_gets_the_supported_list() {
        McpTestClient client = start();

        HttpResponse<String> mismatch =
                client.post(request(8, "server/discover", meta("v999")), headers("server/discover", null));
        Map<String, String> both = headers("server/discover", null);
        both.put("MCP-Protocol-Version", "v999");
        HttpResponse<String> unsupported = client.post(request(9, "server/discover", meta("v999")), both);
        Map<String, String> none = headers("server/discover", null);
        none.put("MCP-Protocol-Version", null);
        HttpResponse<String> missingHeader = client.post(request(10, "server/discover", meta(V)), none);

        assertError(mismatch, 400, 8, StatelessGate.HEADER_MISMATCH);
        assertError(unsupported, 400, 9, StatelessGate.UNSUPPORTED_PROTOCOL_VERSION);
        assertEquals("v999", json(unsupported).at("/error/data/requested").textValue());
        assertEquals(V, json(unsupported).at("/error/data/supported/0").textValue());
        assertError(missingHeader, 400, 10, StatelessGate.HEADER_MISMATCH);
    }

    @Test
    void a_method_or_name_header_that_does_not_match_the_body_is_refused_before_the_tool_runs() {
        McpTestClient client = start();
        String call = request(11, "tools/call", "\"name\":\"list_workdirs\",\"arguments\":{}," + meta(V));

        HttpResponse<String> wrongName = client.post(call, headers("tools/call", "read_text_file"));
        HttpResponse<String> noName = client.post(call, headers("tools/call", null));
        HttpResponse<String> wrongMethod = client.post(call, headers("tools/list", "list_workdirs"));
        HttpResponse<String> wrongCase = client.post(call, headers("TOOLS/CALL", "list_workdirs"));
        HttpResponse<String> padded = client.post(call, headers("  tools/call ", " list_workdirs  "));

        assertError(wrongName, 400, 11, StatelessGate.HEADER_MISMATCH);
        assertError(noName, 400, 11, StatelessGate.HEADER_MISMATCH);
        assertEquals(
                "Bad Request: Mcp-Name header does not match the body",
                json(wrongName).at("/error/message").textValue());
        assertEquals(
                "Bad Request: Mcp-Name header is required",
                json(noName).at("/error/message").textValue());
        assertError(wrongMethod, 400, 11, StatelessGate.HEADER_MISMATCH);
        assertError(wrongCase, 400, 11, StatelessGate.HEADER_MISMATCH);
        assertEquals(200, padded.statusCode(), padded.body());
        assertEquals(1, audit.events().size(), "only the matching call ran");
    }

    @Test
    void a_base64_sentinel_is_decoded_in_mcp_name_only_never_in_mcp_method() {
        McpTestClient client = start();
        String call = request(21, "tools/call", "\"name\":\"list_workdirs\",\"arguments\":{}," + meta(V));

        // 2026-07-28 transports, value encoding: the sentinel applies to Mcp-Name and Mcp-Param-{Name}; Mcp-Method
        // mirrors the method as it is, so an intermediary routing on it sees what the server runs.
        HttpResponse<String> encodedMethod = client.post(call, headers(sentinel("tools/call"), "list_workdirs"));
        HttpResponse<String> encodedName = client.post(call, headers("tools/call", sentinel("list_workdirs")));

        assertError(encodedMethod, 400, 21, StatelessGate.HEADER_MISMATCH);
        assertEquals(200, encodedName.statusCode(), encodedName.body());
        assertEquals(1, audit.events().size(), "only the call with a plain Mcp-Method ran");
    }

    @Test
    void a_header_value_outside_visible_ascii_is_refused_even_when_it_equals_the_body() {
        McpTestClient client = start();
        // Sent as ISO-8859-1 bytes, the value reads back as the body's "listé": a client must send it as a sentinel.
        String call = request(22, "tools/call", "\"name\":\"list\u00e9\",\"arguments\":{}," + meta(V));

        String raw = client.rawPost(
                "127.0.0.1:" + servers.getFirst().port(),
                "MCP-Protocol-Version: " + V + "\r\nMcp-Method: tools/call\r\nMcp-Name: list\u00e9\r\n",
                call);

        assertEquals(400, McpTestClient.status(raw), raw);
        assertTrue(raw.contains("\"code\":" + StatelessGate.HEADER_MISMATCH), raw);
        assertTrue(audit.events().isEmpty());
    }

    private static String sentinel(String value) {
        return "=?base64?" + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + "?=";
    }

    @Test
    void methods_the_revision_removed_and_unknown_methods_are_404_method_not_found() {
        McpTestClient client = start();

        for (String method : List.of(
                "initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "x/y")) {
            HttpResponse<String> response = client.post(request(12, method, meta(V)), headers(method, null));
            assertError(response, 404, 12, JsonRpc.METHOD_NOT_FOUND);
        }
    }

    @Test
    void prompts_get_of_a_server_without_prompts_is_an_unknown_prompt_since_discover_declares_prompts() {
        McpTestClient client = start();

        HttpResponse<String> discover =
                client.post(request(23, "server/discover", meta(V)), headers("server/discover", null));
        HttpResponse<String> get =
                client.post(request(24, "prompts/get", "\"name\":\"nope\"," + meta(V)), headers("prompts/get", "nope"));

        assertTrue(json(discover).at("/result/capabilities/prompts").isObject(), discover.body());
        // server/prompts, error handling: an invalid prompt name is -32602; the method itself exists (not 404).
        assertError(get, 200, 24, JsonRpc.INVALID_PARAMS);
    }

    @Test
    void a_missing_resource_is_invalid_params_with_the_uri_and_lists_carry_caching_hints() {
        McpTestClient client = start();
        String uri = "serverfs://nowhere/x.txt";

        HttpResponse<String> read = client.post(
                request(13, "resources/read", "\"uri\":\"" + uri + "\"," + meta(V)), headers("resources/read", uri));

        assertEquals(200, read.statusCode(), read.body());
        assertEquals(JsonRpc.INVALID_PARAMS, json(read).at("/error/code").intValue());
        assertEquals(uri, json(read).at("/error/data/uri").textValue());
        for (String method : List.of("resources/list", "resources/templates/list", "prompts/list")) {
            HttpResponse<String> list = client.post(request(14, method, meta(V)), headers(method, null));
            assertEquals(200, list.statusCode(), list.body());
            assertEquals("private", json(list).at("/result/cacheScope").textValue());
            assertTrue(json(list).at("/result/ttlMs").isIntegralNumber());
        }
    }

    @Test
    void a_session_client_is_served_as_before_and_its_missing_resource_stays_32002() {
        McpTestClient client = start();
        String session = client.initialize();

        HttpResponse<String> read = client.post(
                request(15, "resources/read", "\"uri\":\"serverfs://nowhere/x.txt\""), McpTestClient.session(session));
        HttpResponse<String> sessionless = client.post(request(16, "tools/list", ""));

        assertEquals(
                FileResourceTemplate.RESOURCE_NOT_FOUND,
                json(read).at("/error/code").intValue());
        assertTrue(json(read).at("/error/data").isMissingNode());
        assertEquals(400, sessionless.statusCode(), "a request naming no era still needs its session");
    }

    @Test
    void an_initialize_whose_meta_names_an_older_version_opens_a_session_and_one_naming_2026_07_28_is_unknown() {
        McpTestClient client = start();
        String params = "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"},";

        HttpResponse<String> older = client.post(request(18, "initialize", params + meta("2025-11-25")));
        HttpResponse<String> current =
                client.post(request(19, "initialize", params + meta(V)), headers("initialize", null));

        assertEquals(200, older.statusCode(), older.body());
        assertEquals("2025-11-25", json(older).at("/result/protocolVersion").textValue());
        assertTrue(older.headers().firstValue("Mcp-Session-Id").isPresent(), "a session, as before");
        assertEquals(404, current.statusCode(), current.body());
        assertEquals(JsonRpc.METHOD_NOT_FOUND, json(current).at("/error/code").intValue());
        assertTrue(current.headers().firstValue("Mcp-Session-Id").isEmpty());
    }

    @Test
    void the_bearer_token_host_and_origin_checks_apply_to_the_stateless_era() {
        McpTestClient client = start(McpSettings.loopback(0, 64 * 1024, "t").withAuthToken("s3cret-token-0123456789"));
        String body = request(17, "server/discover", meta(V));

        HttpResponse<String> anonymous = client.post(body, headers("server/discover", null));
        Map<String, String> foreign = headers("server/discover", null);
        foreign.put("Authorization", "Bearer s3cret-token-0123456789");
        foreign.put("Origin", "http://evil.example");
        HttpResponse<String> crossOrigin = client.post(body, foreign);

        assertEquals(401, anonymous.statusCode());
        assertEquals(403, crossOrigin.statusCode());
    }
}
