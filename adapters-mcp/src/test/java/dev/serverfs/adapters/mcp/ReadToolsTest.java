package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.mcp.tools.FilesystemReadTools;
import dev.serverfs.application.port.in.FindFilesUseCase;
import dev.serverfs.application.port.in.ListDirectoryUseCase;
import dev.serverfs.application.port.in.ReadTextFileUseCase;
import dev.serverfs.application.port.in.SearchTextUseCase;
import dev.serverfs.application.port.in.StatFileUseCase;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The five read tools at the MCP edge with scripted use cases: arguments mapped (defaults left to the use case),
 * snake_case structured content, the reference's audit counters, coded failures, schema rejections.
 */
class ReadToolsTest {

    private final Fixtures.RecordingAuditLog audit = new Fixtures.RecordingAuditLog();
    private final List<Object> queries = new ArrayList<>();

    private ToolInvoker invoker() {
        ListDirectoryUseCase list = q -> {
            queries.add(q);
            return new ListDirectoryUseCase.DirectoryPage(
                    "docs",
                    q.path(),
                    List.of(
                            new ListDirectoryUseCase.Entry("a.txt", "d/a.txt", "file", 3L, "2024-01-02T03:04:05Z"),
                            new ListDirectoryUseCase.Entry("sub", "d/sub", "directory", null, "2024-01-02T03:04:05Z")),
                    0,
                    100,
                    2,
                    false);
        };
        FindFilesUseCase find = q -> {
            queries.add(q);
            return new FindFilesUseCase.FoundFiles(List.of("a.py", "b/c.py"), 2, true);
        };
        SearchTextUseCase search = q -> {
            queries.add(q);
            if (q.query().equals("slow")) {
                throw new ServerFsException(ErrorCode.SEARCH_TIMEOUT, "search in docs: exceeded 15s");
            }
            return new SearchTextUseCase.TextMatches(
                    List.of(new SearchTextUseCase.Match("a.py", 7, "x = 1", false)), 1, false);
        };
        ReadTextFileUseCase read = q -> {
            queries.add(q);
            if (q.path().equals("missing.txt")) {
                throw new ServerFsException(ErrorCode.PATH_NOT_FOUND, "docs:missing.txt — path not found");
            }
            return new ReadTextFileUseCase.TextFileContent(
                    "docs", q.path(), 1, 2, "one\ntwo\n", 8, true, 3L, "v1:0123456789abcdef");
        };
        StatFileUseCase stat = q -> {
            queries.add(q);
            return q.path().isEmpty()
                    ? new StatFileUseCase.FileStatus(
                            "docs", "", "directory", null, "2024-01-02T03:04:05Z", null, "v1:aaaaaaaaaaaaaaaa")
                    : new StatFileUseCase.FileStatus(
                            "docs", q.path(), "file", 12L, "2024-01-02T03:04:05Z", "text/plain", "v1:bbbbbbbbbbbbbbbb");
        };
        List<McpTool> tools = new FilesystemReadTools(List::of, list, find, search, read, stat).definitions();
        return new ToolInvoker(new ToolRegistry(tools, EnumSet.allOf(ToolSurface.class)), audit);
    }

    private static JsonNode json(String text) throws Exception {
        return Json.WIRE.readTree(text);
    }

    /** Re-reads a node from its text so integer widths (int vs long) do not affect equality. */
    private static JsonNode reparsed(JsonNode node) throws Exception {
        return json(node.toString());
    }

    private ObjectNode ok(String tool, String arguments) throws Exception {
        ToolInvoker.Outcome outcome = invoker().call(tool, json(arguments));
        ObjectNode result =
                assertInstanceOf(ToolInvoker.Outcome.Result.class, outcome).result();
        assertFalse(result.get("isError").booleanValue(), result.toString());
        return result;
    }

    private AuditLog.ToolCall lastEvent() {
        return audit.events().getLast();
    }

    @Test
    void list_directory_maps_arguments_and_publishes_snake_case_entries() throws Exception {
        ObjectNode result = ok("list_directory", "{\"workdir\":\"docs\",\"path\":\"d\",\"limit\":5}");
        assertEquals(new ListDirectoryUseCase.ListDirectoryQuery("docs", "d", null, 5), queries.getFirst());
        assertEquals(json("""
                        {"workdir":"docs","path":"d","entries":[
                          {"name":"a.txt","path":"d/a.txt","type":"file","size":3,"modified_at":"2024-01-02T03:04:05Z"},
                          {"name":"sub","path":"d/sub","type":"directory","size":null,"modified_at":"2024-01-02T03:04:05Z"}],
                         "offset":0,"limit":100,"returned":2,"has_more":false}
                        """), reparsed(result.get("structuredContent")));
        // Entries are written by hand: same field order and compact form as a record would have.
        assertEquals(
                "{\"workdir\":\"docs\",\"path\":\"d\",\"entries\":["
                        + "{\"name\":\"a.txt\",\"path\":\"d/a.txt\",\"type\":\"file\",\"size\":3,"
                        + "\"modified_at\":\"2024-01-02T03:04:05Z\"},"
                        + "{\"name\":\"sub\",\"path\":\"d/sub\",\"type\":\"directory\",\"size\":null,"
                        + "\"modified_at\":\"2024-01-02T03:04:05Z\"}],"
                        + "\"offset\":0,\"limit\":100,\"returned\":2,\"has_more\":false}",
                result.at("/content/0/text").textValue());
        assertEquals(Map.of("returned", 2, "has_more", false), lastEvent().counters());
        assertEquals(Optional.of("d"), lastEvent().path());
    }

    @Test
    void find_files_and_search_text_report_returned_and_truncated() throws Exception {
        ObjectNode found = ok("find_files", "{\"workdir\":\"docs\",\"pattern\":\"*.py\"}");
        assertEquals(new FindFilesUseCase.FindFilesQuery("docs", "*.py", "", null), queries.getFirst());
        assertEquals(
                json("{\"matches\":[{\"path\":\"a.py\"},{\"path\":\"b/c.py\"}],\"returned\":2,\"truncated\":true}"),
                reparsed(found.get("structuredContent")));
        assertEquals(Map.of("returned", 2, "truncated", true), lastEvent().counters());

        ObjectNode matches = ok(
                "search_text",
                "{\"workdir\":\"docs\",\"query\":\"x\",\"glob\":\"*.py\",\"case_sensitive\":false,\"limit\":3}");
        assertEquals(new SearchTextUseCase.SearchTextQuery("docs", "x", "", "*.py", false, 3), queries.getLast());
        assertEquals(
                json(
                        "{\"matches\":[{\"path\":\"a.py\",\"line\":7,\"text\":\"x = 1\",\"text_truncated\":false}],\"returned\":1,\"truncated\":false}"),
                reparsed(matches.get("structuredContent")));
        assertEquals(Map.of("returned", 1, "truncated", false), lastEvent().counters());
        assertFalse(lastEvent().toString().contains("x = 1"), "audit never carries content");
    }

    @Test
    void read_text_file_publishes_the_page_and_audits_counters_without_content() throws Exception {
        ObjectNode result = ok("read_text_file", "{\"workdir\":\"docs\",\"path\":\"f.txt\",\"start_line\":1}");
        assertEquals(new ReadTextFileUseCase.ReadTextFileQuery("docs", "f.txt", 1L, null), queries.getFirst());
        assertEquals(json("""
                        {"workdir":"docs","path":"f.txt","start_line":1,"end_line":2,"content":"one\\ntwo\\n",
                         "bytes_returned":8,"has_more":true,"next_start_line":3,"revision":"v1:0123456789abcdef"}
                        """), reparsed(result.get("structuredContent")));
        assertEquals(
                Map.of(
                        "bytes_returned",
                        8L,
                        "start_line",
                        1L,
                        "end_line",
                        2L,
                        "has_more",
                        true,
                        "revision",
                        "v1:0123456789abcdef"),
                lastEvent().counters());
    }

    @Test
    void stat_file_reports_null_size_and_mime_for_directories() throws Exception {
        ObjectNode dir = ok("stat_file", "{\"workdir\":\"docs\",\"path\":\"\"}");
        assertTrue(dir.at("/structuredContent/size").isNull());
        assertTrue(dir.at("/structuredContent/mime_type").isNull());
        assertEquals(
                Map.of("type", "directory", "revision", "v1:aaaaaaaaaaaaaaaa"),
                lastEvent().counters());
        ObjectNode file = ok("stat_file", "{\"workdir\":\"docs\",\"path\":\"n.txt\"}");
        assertEquals("text/plain", file.at("/structuredContent/mime_type").textValue());
        assertEquals("text/plain", lastEvent().counters().get("mime_type"));
    }

    @Test
    void coded_failures_are_tool_errors_and_audited() throws Exception {
        ObjectNode missing = assertInstanceOf(
                        ToolInvoker.Outcome.Result.class,
                        invoker().call("read_text_file", json("{\"workdir\":\"docs\",\"path\":\"missing.txt\"}")))
                .result();
        assertTrue(missing.get("isError").booleanValue());
        assertEquals(
                "PATH_NOT_FOUND: docs:missing.txt — path not found",
                missing.at("/content/0/text").textValue());
        assertEquals(Optional.of("PATH_NOT_FOUND"), lastEvent().errorCode());
        ObjectNode slow = assertInstanceOf(
                        ToolInvoker.Outcome.Result.class,
                        invoker().call("search_text", json("{\"workdir\":\"docs\",\"query\":\"slow\"}")))
                .result();
        assertEquals(
                "SEARCH_TIMEOUT: search in docs: exceeded 15s",
                slow.at("/content/0/text").textValue());
    }

    @Test
    void schemas_reject_bad_arguments_before_the_use_case_as_invalid_arguments_results() throws Exception {
        // Issue 10 §13 (MCP 2025-11-25 SEP-1303): a tool result the model can read, no longer JSON-RPC -32602.
        for (String[] call : new String[][] {
            {"list_directory", "{\"workdir\":\"docs\",\"limit\":0}"},
            {"list_directory", "{\"workdir\":\"docs\",\"offset\":-1}"},
            {"list_directory", "{\"workdir\":\"docs\",\"offset\":-99999999999999999999999}"},
            {"list_directory", "{\"workdir\":\"docs\",\"limit\":1.5}"},
            {"list_directory", "{\"workdir\":\"docs\",\"limit\":\"10\"}"},
            {"find_files", "{\"workdir\":\"docs\"}"},
            {"search_text", "{\"workdir\":\"docs\",\"query\":\"x\",\"case_sensitive\":\"yes\"}"},
            {"read_text_file", "{\"workdir\":\"docs\",\"path\":\"f\",\"start_line\":0}"},
            {"read_text_file", "{\"workdir\":\"docs\",\"path\":\"f\",\"max_lines\":-1e300}"},
            {"stat_file", "{\"workdir\":\"docs\"}"},
            {"stat_file", "{\"workdir\":\"docs\",\"path\":7,\"extra\":1}"},
        }) {
            ObjectNode result = assertInstanceOf(
                            ToolInvoker.Outcome.Result.class, invoker().call(call[0], json(call[1])), call[1])
                    .result();
            assertTrue(result.get("isError").booleanValue(), call[1]);
            String text = result.at("/content/0/text").textValue();
            assertTrue(text.startsWith("INVALID_ARGUMENTS: Invalid arguments for tool " + call[0]), text);
        }
        assertTrue(queries.isEmpty());
    }

    @Test
    void integers_past_32_and_64_bits_reach_the_use_case_saturated_never_as_a_fault() throws Exception {
        // Issue 10 §7: 2^31 in offset/limit/start_line/max_lines answered -32603 with a stack trace in the log.
        String huge = "99999999999999999999999";
        for (String[] call : new String[][] {
            {"list_directory", "{\"workdir\":\"docs\",\"offset\":2147483648,\"limit\":" + huge + "}"},
            {"find_files", "{\"workdir\":\"docs\",\"pattern\":\"*\",\"limit\":4294967296}"},
            {"search_text", "{\"workdir\":\"docs\",\"query\":\"x\",\"limit\":1e300}"},
            {"read_text_file", "{\"workdir\":\"docs\",\"path\":\"f\",\"start_line\":" + huge + ",\"max_lines\":3e9}"},
            {"read_text_file", "{\"workdir\":\"docs\",\"path\":\"g\",\"start_line\":2147483648.0}"},
        }) {
            ObjectNode result = assertInstanceOf(
                            ToolInvoker.Outcome.Result.class, invoker().call(call[0], json(call[1])), call[1])
                    .result();
            assertFalse(result.get("isError").booleanValue(), call[1]);
        }
        int max = Integer.MAX_VALUE;
        assertEquals(
                List.of(
                        new ListDirectoryUseCase.ListDirectoryQuery("docs", "", max, max),
                        new FindFilesUseCase.FindFilesQuery("docs", "*", "", max),
                        new SearchTextUseCase.SearchTextQuery("docs", "x", "", null, null, max),
                        new ReadTextFileUseCase.ReadTextFileQuery("docs", "f", Long.MAX_VALUE, max),
                        new ReadTextFileUseCase.ReadTextFileQuery("docs", "g", 2147483648L, null)),
                queries);
    }

    @Test
    void read_tools_are_read_only_and_closed_world() {
        ToolRegistry registry = new ToolRegistry(
                new FilesystemReadTools(List::of, q -> null, q -> null, q -> null, q -> null, q -> null).definitions(),
                EnumSet.of(ToolSurface.FILESYSTEM));
        for (JsonNode d : registry.descriptors()) {
            assertTrue(d.at("/annotations/readOnlyHint").booleanValue(), d.toString());
            assertFalse(d.at("/annotations/openWorldHint").booleanValue(), d.toString());
            assertTrue(d.has("outputSchema"), d.toString());
        }
        // The group's exact list and order are ToolCatalogueTest's; every one of them is checked above.
        assertTrue(registry.names()
                .containsAll(List.of(
                        "list_workdirs",
                        "list_directory",
                        "find_files",
                        "search_text",
                        "read_text_file",
                        "stat_file")));
    }
}
