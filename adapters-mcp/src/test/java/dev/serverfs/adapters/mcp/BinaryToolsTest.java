package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.mcp.tools.BinaryTools;
import dev.serverfs.application.port.in.DownloadBinaryFileUseCase;
import dev.serverfs.application.port.in.UploadBinaryFileUseCase;
import dev.serverfs.application.port.in.UploadBinaryFileUseCase.UploadBinaryFileCommand;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The binary tools at the MCP edge (reference §2.14-§2.15, v0.5 §3-§5): the generated {@code tools/list} entries
 * against golden files in both ingress modes, the embedded blob result, and the {@code file} argument schema.
 */
class BinaryToolsTest {

    private static final String GOLDEN = "/dev/serverfs/adapters/mcp/golden/";

    private final Fixtures.RecordingAuditLog audit = new Fixtures.RecordingAuditLog();
    private final AtomicReference<UploadBinaryFileCommand> lastUpload = new AtomicReference<>();

    private final UploadBinaryFileUseCase upload = command -> {
        lastUpload.set(command);
        return new UploadBinaryFileUseCase.UploadedBinaryFile(
                command.workdir(),
                command.path(),
                true,
                false,
                3,
                "ab",
                Optional.empty(),
                "v1:0123456789abcdef",
                "image/png");
    };

    private final DownloadBinaryFileUseCase download = query -> new DownloadBinaryFileUseCase.DownloadedBinaryFile(
            query.workdir(), query.path(), 3, "image/png", "cd", "v1:0123456789abcdef", new byte[] {1, 2, 3});

    private ToolRegistry registry(boolean ingress) {
        return new ToolRegistry(
                new BinaryTools(download, upload, ingress).definitions(), EnumSet.allOf(ToolSurface.class));
    }

    @Test
    void tools_list_entries_match_the_golden_files_with_ingress_enabled_and_disabled() throws Exception {
        assertGolden("binary-tools.ingress-enabled.json", registry(true).descriptors());
        assertGolden("binary-tools.ingress-disabled.json", registry(false).descriptors());
    }

    @Test
    void file_params_meta_is_on_upload_only_and_only_with_ingress() {
        JsonNode enabled = registry(true).descriptors();
        JsonNode disabled = registry(false).descriptors();

        assertFalse(enabled.get(0).has("_meta"), "download never carries the meta");
        assertEquals(
                "[\"file\"]", enabled.get(1).at("/_meta/openai~1fileParams").toString());
        assertFalse(disabled.get(1).has("_meta"));
        assertEquals(enabled.get(1).get("inputSchema"), disabled.get(1).get("inputSchema"), "same schema both ways");
    }

    @Test
    void binary_tools_are_registered_only_on_the_binary_surface() {
        ToolRegistry without = new ToolRegistry(
                new BinaryTools(download, upload, true).definitions(),
                EnumSet.of(ToolSurface.FILESYSTEM, ToolSurface.AGENT));

        assertTrue(without.isEmpty());
    }

    @Test
    void download_returns_one_embedded_blob_resource_then_the_metadata_as_json_text_and_structured_content()
            throws Exception {
        ToolInvoker invoker = new ToolInvoker(registry(false), audit);

        ObjectNode result = assertInstanceOf(
                        ToolInvoker.Outcome.Result.class,
                        invoker.call(
                                "download_binary_file",
                                Json.WIRE.readTree("{\"workdir\":\"wd\",\"path\":\"a b/ü#?.png\"}")))
                .result();

        assertEquals(2, result.get("content").size());
        JsonNode item = result.at("/content/0");
        assertEquals("resource", item.get("type").textValue());
        assertEquals(
                "serverfs://wd/a%20b/%C3%BC%23%3F.png", item.at("/resource/uri").textValue());
        assertEquals("image/png", item.at("/resource/mimeType").textValue());
        assertEquals("AQID", item.at("/resource/blob").textValue());
        assertEquals(
                Json.WIRE.readTree("""
                        {"workdir":"wd","path":"a b/ü#?.png","size":3,"mime_type":"image/png","sha256":"cd",\
                        "revision":"v1:0123456789abcdef"}""").toString(),
                result.get("structuredContent").toString());
        assertEquals("text", result.at("/content/1/type").textValue());
        assertEquals(
                result.get("structuredContent"),
                Json.WIRE.readTree(result.at("/content/1/text").textValue()));
        assertFalse(result.get("isError").booleanValue());
    }

    @Test
    void the_file_argument_is_strict_and_nullable() throws Exception {
        ToolInvoker invoker = new ToolInvoker(registry(true), audit);

        ToolInvoker.Outcome extra = invoker.call("upload_binary_file", Json.WIRE.readTree("""
                        {"workdir":"wd","path":"a","file":{"download_url":"https://x/y","file_id":"f","size":1}}"""));
        ToolInvoker.Outcome missingId = invoker.call(
                "upload_binary_file",
                Json.WIRE.readTree("{\"workdir\":\"wd\",\"path\":\"a\",\"file\":{\"download_url\":\"https://x/y\"}}"));
        ToolInvoker.Outcome nulls = invoker.call(
                "upload_binary_file",
                Json.WIRE.readTree(
                        "{\"workdir\":\"wd\",\"path\":\"a\",\"file\":null,\"data_base64\":\"\",\"expected_revision\":null}"));

        // The file object is closed (unknown keys are dropped only at the top level, issue 10 §12); a bad one is a
        // tool error.
        for (ToolInvoker.Outcome bad : List.of(extra, missingId)) {
            ObjectNode result =
                    assertInstanceOf(ToolInvoker.Outcome.Result.class, bad).result();
            assertTrue(result.get("isError").booleanValue());
            assertTrue(result.at("/content/0/text").textValue().startsWith("INVALID_ARGUMENTS: "));
        }
        assertInstanceOf(ToolInvoker.Outcome.Result.class, nulls);
        assertEquals(Optional.of(""), lastUpload.get().dataBase64());
        assertEquals(Optional.empty(), lastUpload.get().file());
        assertFalse(lastUpload.get().overwrite());
    }

    @Test
    void upload_audit_records_bytes_and_revision_but_never_the_file_id_url_or_name() throws Exception {
        ToolInvoker invoker = new ToolInvoker(registry(true), audit);

        invoker.call("upload_binary_file", Json.WIRE.readTree("""
                        {"workdir":"wd","path":"a","file":{"download_url":"https://files.example/secret-url",\
                        "file_id":"file-secret-id","file_name":"secret-name.bin","mime_type":"image/png"}}"""));

        String recorded = audit.events().toString();
        assertTrue(recorded.contains("bytes_written"), recorded);
        assertTrue(recorded.contains("image/png"), recorded);
        assertTrue(recorded.contains("v1:0123456789abcdef"), recorded);
        assertFalse(recorded.contains("secret"), recorded);
        assertEquals("file-secret-id", lastUpload.get().file().orElseThrow().fileId());
        assertFalse(lastUpload.get().toString().contains("secret"));
    }

    private static void assertGolden(String name, JsonNode actual) throws IOException {
        String text = Json.WIRE.writerWithDefaultPrettyPrinter().writeValueAsString(actual) + "\n";
        try (InputStream in = BinaryToolsTest.class.getResourceAsStream(GOLDEN + name)) {
            if (in == null) {
                Path out = Path.of("target", "golden-actual", name);
                Files.createDirectories(out.getParent());
                Files.writeString(out, text, StandardCharsets.UTF_8);
                throw new AssertionError("missing golden file " + name + "; actual written to " + out);
            }
            assertEquals(Json.WIRE.readTree(in).toString(), actual.toString(), name);
        }
    }
}
