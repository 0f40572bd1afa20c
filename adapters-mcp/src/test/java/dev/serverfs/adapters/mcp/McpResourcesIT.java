package dev.serverfs.adapters.mcp;

import static dev.serverfs.adapters.mcp.McpTestClient.json;
import static dev.serverfs.adapters.mcp.McpTestClient.session;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Resource templates over real HTTP: capability, listing, reading, failures. */
class McpResourcesIT {

    private McpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private McpTestClient start(List<McpResourceTemplate> templates) {
        server = McpServer.start(
                McpSettings.loopback(0, 1 << 20, "t"), new Fixtures.RecordingAuditLog(), List.of(), templates);
        return new McpTestClient(server.port());
    }

    private static String read(String uri) {
        return "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri + "\"}}";
    }

    @Test
    void without_templates_no_resources_capability_is_declared() {
        McpTestClient client = start(List.of());

        JsonNode init = json(client.post(McpTestClient.INIT.formatted("2025-11-25")));

        assertFalse(init.at("/result/capabilities").has("resources"));
    }

    @Test
    void a_registered_template_is_declared_listed_and_read() {
        McpTestClient client = start(List.of(new EchoTemplate()));
        JsonNode init = json(client.post(McpTestClient.INIT.formatted("2025-11-25")));
        String id = client.initialize();

        JsonNode templates = json(client.post(
                        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/templates/list\"}", session(id)))
                .at("/result/resourceTemplates");
        JsonNode contents =
                json(client.post(read("echo://docs/a.txt"), session(id))).at("/result/contents/0");

        assertTrue(init.at("/result/capabilities/resources").isObject());
        assertEquals(
                "echo://{workdir}/{path}", templates.get(0).get("uriTemplate").textValue());
        assertEquals("Echo file", templates.get(0).get("name").textValue());
        assertEquals("text/plain", templates.get(0).get("mimeType").textValue());
        assertEquals("echo://docs/a.txt", contents.get("uri").textValue());
        assertEquals("text/plain", contents.get("mimeType").textValue());
        assertEquals("docs/a.txt", contents.get("text").textValue());
    }

    @Test
    void a_failed_read_is_invalid_params_with_the_code_and_an_unmatched_uri_is_unknown() {
        McpTestClient client = start(List.of(new EchoTemplate()));
        String id = client.initialize();

        JsonNode failed = json(client.post(read("echo://docs/big.txt"), session(id)));
        JsonNode unknown = json(client.post(read("other://x"), session(id)));

        assertEquals(-32602, failed.at("/error/code").intValue());
        assertEquals(
                "RESOURCE_TOO_LARGE: docs:big.txt — use read_text_file",
                failed.at("/error/message").textValue());
        assertEquals(-32602, unknown.at("/error/code").intValue());
    }

    /** Serves {@code echo://W/P} as the text {@code W/P}; {@code big.txt} is too large. */
    static final class EchoTemplate implements McpResourceTemplate {
        @Override
        public Spec spec() {
            return new Spec("echo://{workdir}/{path}", "Echo file", "Echoes its own address.", "text/plain");
        }

        @Override
        public boolean matches(String uri) {
            return uri.startsWith("echo://");
        }

        @Override
        public Text read(String uri) {
            String rest = uri.substring("echo://".length());
            if (rest.endsWith("big.txt")) {
                throw new ServerFsException(ErrorCode.RESOURCE_TOO_LARGE, "docs:big.txt — use read_text_file");
            }
            return new Text(uri, "text/plain", rest);
        }
    }
}
