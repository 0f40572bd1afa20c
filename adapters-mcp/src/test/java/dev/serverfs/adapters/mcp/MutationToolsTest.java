package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.mcp.tools.FilesystemMutationTools;
import dev.serverfs.application.port.in.CreateDirectoryUseCase;
import dev.serverfs.application.port.in.CreateTextFileUseCase;
import dev.serverfs.application.port.in.DeleteDirectoryUseCase;
import dev.serverfs.application.port.in.DeleteFileUseCase;
import dev.serverfs.application.port.in.EditTextFileUseCase;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.TextEdit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The five mutation tools at the MCP edge with scripted use cases: arguments mapped (edits, default
 * expected_count 1, dry_run), snake_case results, the reference's audit counters and never content or edit text.
 */
class MutationToolsTest {

    private final Fixtures.RecordingAuditLog audit = new Fixtures.RecordingAuditLog();
    private final List<Object> commands = new ArrayList<>();

    private ToolInvoker invoker() {
        CreateTextFileUseCase create = c -> {
            commands.add(c);
            if (c.path().equals("taken")) {
                throw new ServerFsException(ErrorCode.PATH_ALREADY_EXISTS, "rw:taken — something already exists");
            }
            return new CreateTextFileUseCase.CreatedTextFile("rw", c.path(), true, 5, "v1:1111111111111111");
        };
        EditTextFileUseCase edit = c -> {
            commands.add(c);
            return new EditTextFileUseCase.EditedTextFile(
                    "rw",
                    c.path(),
                    !c.dryRun(),
                    c.edits().size(),
                    10,
                    12,
                    "v1:aaaaaaaaaaaaaaaa",
                    "v1:bbbbbbbbbbbbbbbb",
                    "@@ -1 +1 @@\n-SECRET\n+OTHER\n",
                    c.dryRun());
        };
        DeleteFileUseCase deleteFile = c -> {
            commands.add(c);
            return new DeleteFileUseCase.DeletedFile(
                    "rw", c.path(), true, 7, c.expectedRevision().token());
        };
        CreateDirectoryUseCase mkdir = c -> {
            commands.add(c);
            return new CreateDirectoryUseCase.CreatedDirectory("rw", c.path(), true, "v1:cccccccccccccccc");
        };
        DeleteDirectoryUseCase rmdir = c -> {
            commands.add(c);
            return new DeleteDirectoryUseCase.DeletedDirectory(
                    "rw", c.path(), true, c.expectedRevision().token());
        };
        List<McpTool> tools = new FilesystemMutationTools(create, edit, deleteFile, mkdir, rmdir).definitions();
        return new ToolInvoker(new ToolRegistry(tools, EnumSet.allOf(ToolSurface.class)), audit);
    }

    private ObjectNode call(String tool, String arguments) throws Exception {
        ToolInvoker.Outcome outcome = invoker().call(tool, Json.WIRE.readTree(arguments));
        return assertInstanceOf(ToolInvoker.Outcome.Result.class, outcome).result();
    }

    private static JsonNode json(String text) throws Exception {
        return Json.WIRE.readTree(text);
    }

    @Test
    void create_text_file_audits_bytes_and_revision_never_the_content() throws Exception {
        ObjectNode result = call("create_text_file", "{\"workdir\":\"rw\",\"path\":\"a\",\"content\":\"SECRET\"}");
        assertFalse(result.get("isError").booleanValue());
        assertEquals(
                json("{\"workdir\":\"rw\",\"path\":\"a\",\"created\":true,\"bytes_written\":5,"
                        + "\"revision\":\"v1:1111111111111111\"}"),
                json(result.get("structuredContent").toString()));
        assertEquals(
                Map.of("bytes_written", 5L, "revision", "v1:1111111111111111"),
                audit.events().getLast().counters());
        assertFalse(audit.events().getLast().toString().contains("SECRET"));
    }

    @Test
    void edit_text_file_maps_edits_with_default_count_and_dry_run_and_audits_counts_only() throws Exception {
        ObjectNode result = call(
                "edit_text_file",
                "{\"workdir\":\"rw\",\"path\":\"e\",\"expected_revision\":\"v1:aaaaaaaaaaaaaaaa\",\"dry_run\":true,"
                        + "\"edits\":[{\"old_text\":\"SECRET\",\"new_text\":\"OTHER\"},"
                        + "{\"old_text\":\"x\",\"new_text\":\"y\",\"expected_count\":3}]}");
        assertFalse(result.get("isError").booleanValue());
        EditTextFileUseCase.EditTextFileCommand command =
                assertInstanceOf(EditTextFileUseCase.EditTextFileCommand.class, commands.getLast());
        assertEquals(List.of(new TextEdit("SECRET", "OTHER", 1), new TextEdit("x", "y", 3)), command.edits());
        assertTrue(command.dryRun());
        JsonNode payload = result.get("structuredContent");
        assertEquals("@@ -1 +1 @@\n-SECRET\n+OTHER\n", payload.get("diff").asText());
        assertEquals(2, payload.get("edits_applied").asInt());
        assertTrue(payload.get("dry_run").asBoolean());
        assertEquals(
                Map.of("edit_count", 2, "bytes_before", 10L, "bytes_after", 12L, "revision", "v1:bbbbbbbbbbbbbbbb"),
                audit.events().getLast().counters());
        assertFalse(audit.events().getLast().toString().contains("SECRET"));
    }

    @Test
    void deletes_and_directories_audit_their_counters() throws Exception {
        call("delete_file", "{\"workdir\":\"rw\",\"path\":\"f\",\"expected_revision\":\"v1:dddddddddddddddd\"}");
        assertEquals(
                Map.of("bytes_deleted", 7L, "revision", "v1:dddddddddddddddd"),
                audit.events().getLast().counters());
        call("create_directory", "{\"workdir\":\"rw\",\"path\":\"d\"}");
        assertEquals(
                Map.of("revision", "v1:cccccccccccccccc"),
                audit.events().getLast().counters());
        ObjectNode removed = call(
                "delete_directory",
                "{\"workdir\":\"rw\",\"path\":\"d\",\"expected_revision\":\"v1:eeeeeeeeeeeeeeee\"}");
        assertEquals(
                json(
                        "{\"workdir\":\"rw\",\"path\":\"d\",\"deleted\":true,\"revision_deleted\":\"v1:eeeeeeeeeeeeeeee\"}"),
                json(removed.get("structuredContent").toString()));
    }

    @Test
    void a_failure_is_a_coded_tool_error_with_the_code_audited() throws Exception {
        ObjectNode result = call("create_text_file", "{\"workdir\":\"rw\",\"path\":\"taken\",\"content\":\"x\"}");
        assertTrue(result.get("isError").booleanValue());
        assertTrue(result.get("content").get(0).get("text").asText().startsWith("PATH_ALREADY_EXISTS: rw:taken"));
        assertEquals(
                java.util.Optional.of("PATH_ALREADY_EXISTS"),
                audit.events().getLast().errorCode());
    }

    @Test
    void a_missing_expected_revision_or_empty_edit_list_fails_the_schema() throws Exception {
        for (String[] bad : new String[][] {
            {"edit_text_file", "{\"workdir\":\"rw\",\"path\":\"e\",\"edits\":[{\"old_text\":\"a\",\"new_text\":\"b\"}]}"
            },
            {"edit_text_file", "{\"workdir\":\"rw\",\"path\":\"e\",\"expected_revision\":\"r\",\"edits\":[]}"},
            {"delete_file", "{\"workdir\":\"rw\",\"path\":\"f\"}"},
            {"create_text_file", "{\"workdir\":\"rw\",\"path\":\"f\"}"},
        }) {
            ObjectNode result =
                    ((ToolInvoker.Outcome.Result) invoker().call(bad[0], Json.WIRE.readTree(bad[1]))).result();
            assertTrue(result.at("/content/0/text").textValue().startsWith("INVALID_ARGUMENTS: "), bad[1]);
        }
        assertTrue(commands.isEmpty());
    }
}
