package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.application.port.in.ReadResourceUseCase;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FileResourceTemplateTest {

    private final List<String> reads = new ArrayList<>();
    private final ReadResourceUseCase useCase = (workdir, path) -> {
        reads.add(workdir + "|" + path);
        return switch (path) {
            case "big.txt" ->
                throw new ServerFsException(
                        ErrorCode.RESOURCE_TOO_LARGE,
                        "docs:big.txt — file exceeds the resource read budget; use read_text_file for paginated access");
            case "missing.txt" ->
                throw new ServerFsException(ErrorCode.PATH_NOT_FOUND, "docs:missing.txt — path not found");
            default -> "hello\n";
        };
    };
    private final FileResourceTemplate template = new FileResourceTemplate(useCase);

    private static JsonNode params(String uri) throws Exception {
        return Json.WIRE.readTree("{\"uri\":" + Json.WIRE.writeValueAsString(uri) + "}");
    }

    @Test
    void reads_nested_and_percent_encoded_paths_as_text_plain() throws Exception {
        ObjectNode ok = template.read(IntNode.valueOf(1), params("serverfs://docs/a/b%20c.txt"));
        assertEquals("hello\n", ok.at("/result/contents/0/text").textValue());
        assertEquals("text/plain", ok.at("/result/contents/0/mimeType").textValue());
        assertEquals(
                "serverfs://docs/a/b%20c.txt", ok.at("/result/contents/0/uri").textValue());
        template.read(IntNode.valueOf(2), params("serverfs://docs/a%2Fb.txt"));
        assertEquals(List.of("docs|a/b c.txt", "docs|a/b.txt"), reads);
    }

    @Test
    void coded_failures_are_json_rpc_errors_with_the_code() throws Exception {
        ObjectNode tooLarge = template.read(IntNode.valueOf(1), params("serverfs://docs/big.txt"));
        assertEquals(-32602, tooLarge.at("/error/code").intValue());
        assertEquals(
                "RESOURCE_TOO_LARGE: docs:big.txt — file exceeds the resource read budget; use read_text_file for"
                        + " paginated access",
                tooLarge.at("/error/message").textValue());
        ObjectNode missing = template.read(IntNode.valueOf(2), params("serverfs://docs/missing.txt"));
        assertEquals(-32002, missing.at("/error/code").intValue());
        assertEquals(
                -32002,
                template.read(IntNode.valueOf(3), params("file:///etc/passwd"))
                        .at("/error/code")
                        .intValue());
        assertEquals(
                -32602,
                template.read(IntNode.valueOf(4), params("serverfs://docs/%zz"))
                        .at("/error/code")
                        .intValue());
    }

    @Test
    void the_template_is_listed_and_advertised_only_when_configured() {
        McpSessions sessions =
                new McpSessions(new MutableClock(java.time.Instant.EPOCH), java.time.Duration.ofMinutes(5), 10);
        ToolRegistry registry = new ToolRegistry(List.of(), EnumSet.allOf(ToolSurface.class));
        ToolInvoker invoker = new ToolInvoker(registry, new Fixtures.RecordingAuditLog());
        McpDispatcher with = new McpDispatcher(
                registry, invoker, sessions, "test", EnumSet.of(ToolSurface.FILESYSTEM), Optional.of(template));
        McpDispatcher without =
                new McpDispatcher(registry, invoker, sessions, "test", EnumSet.of(ToolSurface.FILESYSTEM));
        JsonNode init = Json.object().put("protocolVersion", "2025-11-25");
        McpDispatcher.Initialized a = with.initialize(IntNode.valueOf(1), init);
        assertEquals(
                false,
                a.response().at("/result/capabilities/resources/subscribe").booleanValue());
        assertNull(without.initialize(IntNode.valueOf(1), init)
                .response()
                .at("/result/capabilities")
                .get("resources"));
        ObjectNode listed =
                with.request(a.session().orElseThrow(), IntNode.valueOf(2), "resources/templates/list", null);
        assertEquals(
                "serverfs://{workdir}/{+path}",
                listed.at("/result/resourceTemplates/0/uriTemplate").textValue());
        assertEquals(
                "ServerFS file", listed.at("/result/resourceTemplates/0/name").textValue());
        ObjectNode read = with.request(a.session().orElseThrow(), IntNode.valueOf(3), "resources/read", params0());
        assertEquals("hello\n", read.at("/result/contents/0/text").textValue());
    }

    private static JsonNode params0() {
        return Json.object().put("uri", "serverfs://docs/x.txt");
    }
}
