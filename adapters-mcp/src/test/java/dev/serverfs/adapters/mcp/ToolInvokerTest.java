package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.mcp.tools.ListWorkdirsTool;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.application.service.ListWorkdirsService;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ToolInvokerTest {

    private final Fixtures.RecordingAuditLog audit = new Fixtures.RecordingAuditLog();

    private ToolInvoker invoker(McpTool... tools) {
        return new ToolInvoker(new ToolRegistry(List.of(tools), EnumSet.allOf(ToolSurface.class)), audit);
    }

    private static JsonNode json(String text) throws Exception {
        return Json.WIRE.readTree(text);
    }

    @Test
    void list_workdirs_returns_structured_content_and_the_same_json_as_text() throws Exception {
        ToolInvoker invoker = invoker(new ListWorkdirsTool(new ListWorkdirsService(Fixtures.twoWorkdirs())));

        ToolInvoker.Outcome outcome = invoker.call("list_workdirs", json("{}"));

        ObjectNode result =
                assertInstanceOf(ToolInvoker.Outcome.Result.class, outcome).result();
        JsonNode expected = json("""
                {"workdirs":[
                  {"alias":"docs","description":"Project documents","access":"read-only","binary_transfer":false,
                   "agent_mode":"disabled","agent_runtimes":[]},
                  {"alias":"scratch","description":null,"access":"read-write","binary_transfer":true,
                   "agent_mode":"workspace-write","agent_runtimes":["claude","codex"]}]}
                """);
        assertEquals(expected, result.get("structuredContent"));
        assertFalse(result.get("isError").booleanValue());
        assertEquals(1, result.get("content").size());
        assertEquals("text", result.at("/content/0/type").textValue());
        assertEquals(expected, json(result.at("/content/0/text").textValue()));
        assertFalse(result.toString().contains("secret-host-path"), "no host path in a result");
    }

    @Test
    void list_workdirs_emits_exactly_one_audit_event_with_returned() throws Exception {
        invoker(new ListWorkdirsTool(new ListWorkdirsService(Fixtures.twoWorkdirs())))
                .call("list_workdirs", json("{}"));

        assertEquals(1, audit.events().size());
        AuditLog.ToolCall event = audit.events().getFirst();
        assertEquals("list_workdirs", event.tool());
        assertTrue(event.success());
        assertEquals(Optional.empty(), event.errorCode());
        assertEquals(Map.of("returned", 2), event.counters());
    }

    @Test
    void missing_arguments_read_as_an_empty_object() {
        ToolInvoker.Outcome outcome = invoker(new ListWorkdirsTool(new ListWorkdirsService(Fixtures.twoWorkdirs())))
                .call("list_workdirs", null);

        assertInstanceOf(ToolInvoker.Outcome.Result.class, outcome);
    }

    @Test
    void unknown_tool_is_invalid_params_and_not_audited() throws Exception {
        ToolInvoker.Outcome outcome = invoker().call("no_such_tool", json("{}"));

        ToolInvoker.Outcome.Failure failure = assertInstanceOf(ToolInvoker.Outcome.Failure.class, outcome);
        assertEquals(-32602, failure.code());
        assertEquals("Unknown tool: no_such_tool", failure.message());
        assertTrue(audit.events().isEmpty());
    }

    @Test
    void arguments_failing_the_schema_are_invalid_params_and_audited_once() throws Exception {
        ToolInvoker invoker = invoker(new EchoTool());

        ToolInvoker.Outcome outcome = invoker.call("echo_path", json("{\"workdir\":\"docs\",\"path\":7}"));

        ToolInvoker.Outcome.Failure failure = assertInstanceOf(ToolInvoker.Outcome.Failure.class, outcome);
        assertEquals(-32602, failure.code());
        assertTrue(failure.message().startsWith("Invalid arguments for tool echo_path: "), failure.message());
        assertTrue(failure.message().contains("path"), failure.message());
        assertEquals(1, audit.events().size());
        assertEquals(Optional.of("INVALID_ARGUMENTS"), audit.events().getFirst().errorCode());
        assertEquals(Optional.of("docs"), audit.events().getFirst().workdir());
    }

    @Test
    void unknown_argument_fails_a_closed_schema() throws Exception {
        ToolInvoker.Outcome outcome = invoker(new ListWorkdirsTool(new ListWorkdirsService(Fixtures.twoWorkdirs())))
                .call("list_workdirs", json("{\"surprise\":1}"));

        assertEquals(
                -32602,
                assertInstanceOf(ToolInvoker.Outcome.Failure.class, outcome).code());
    }

    @Test
    void non_object_arguments_are_invalid_params() throws Exception {
        ToolInvoker.Outcome outcome = invoker(new EchoTool()).call("echo_path", json("[1,2]"));

        assertEquals(
                -32602,
                assertInstanceOf(ToolInvoker.Outcome.Failure.class, outcome).code());
    }

    @Test
    void a_tool_failure_is_an_error_result_with_code_and_message() throws Exception {
        ToolInvoker invoker = invoker(new EchoTool());

        ToolInvoker.Outcome outcome =
                invoker.call("echo_path", json("{\"workdir\":\"docs\",\"path\":\"missing.txt\"}"));

        ObjectNode result =
                assertInstanceOf(ToolInvoker.Outcome.Result.class, outcome).result();
        assertTrue(result.get("isError").booleanValue());
        assertEquals(
                "PATH_NOT_FOUND: docs:missing.txt — no such file",
                result.at("/content/0/text").textValue());
        assertFalse(result.has("structuredContent"));
        AuditLog.ToolCall event = audit.events().getFirst();
        assertFalse(event.success());
        assertEquals(Optional.of("PATH_NOT_FOUND"), event.errorCode());
        assertEquals(Optional.of("docs"), event.workdir());
        assertEquals(Optional.of("missing.txt"), event.path());
    }

    @Test
    void every_agent_tool_audit_event_carries_schema_version_and_a_well_formed_task_id() throws Exception {
        ToolInvoker invoker = invoker(new PokeTaskTool());
        String id = "agt_" + "0123456789abcdef01234567";

        invoker.call("poke_task", json("{\"task_id\":\"" + id + "\",\"outcome\":\"ok\"}"));
        invoker.call("poke_task", json("{\"task_id\":\"" + id + "\",\"outcome\":\"missing\"}"));
        invoker.call("poke_task", json("{\"task_id\":\"" + id + "\",\"outcome\":\"other\"}"));
        invoker.call("poke_task", json("{\"task_id\":\"../etc/passwd\",\"outcome\":\"missing\"}"));

        List<AuditLog.ToolCall> events = audit.events();
        assertEquals(Map.of("schema_version", 1, "returned", 1), events.get(0).counters());
        assertEquals(Optional.of("AGENT_TASK_NOT_FOUND"), events.get(1).errorCode());
        assertEquals(Map.of("schema_version", 1, "task_id", id), events.get(1).counters());
        assertEquals(Optional.of("INVALID_ARGUMENTS"), events.get(2).errorCode());
        assertEquals(Map.of("schema_version", 1, "task_id", id), events.get(2).counters());
        assertEquals(Map.of("schema_version", 1), events.get(3).counters(), "a malformed id is not echoed");
    }

    @Test
    void filesystem_tool_failures_carry_no_agent_fields() throws Exception {
        invoker(new EchoTool()).call("echo_path", json("{\"workdir\":\"docs\",\"path\":\"missing.txt\"}"));

        assertEquals(Map.of(), audit.events().getFirst().counters());
    }

    @Test
    void an_unexpected_exception_is_a_generic_internal_error() throws Exception {
        ToolInvoker.Outcome outcome =
                invoker(new EchoTool()).call("echo_path", json("{\"workdir\":\"docs\",\"path\":\"boom\"}"));

        ToolInvoker.Outcome.Failure failure = assertInstanceOf(ToolInvoker.Outcome.Failure.class, outcome);
        assertEquals(-32603, failure.code());
        assertEquals("Internal error", failure.message());
        assertFalse(failure.message().contains("/srv"));
        assertEquals(Optional.of("INTERNAL_ERROR"), audit.events().getFirst().errorCode());
    }

    @Test
    void a_tool_outside_the_enabled_surfaces_is_not_registered() {
        ToolRegistry registry =
                new ToolRegistry(List.of(new EchoTool(), new BinaryOnlyTool()), EnumSet.of(ToolSurface.FILESYSTEM));

        assertEquals(List.of("echo_path"), List.copyOf(registry.names()));
    }

    @Test
    void a_tool_without_a_schema_resource_fails_at_start_up() {
        McpTool noSchema = new McpTool() {
            @Override
            public ToolSpec spec() {
                return new ToolSpec("no_schema_here", "x", ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM);
            }

            @Override
            public ToolResult call(ToolArguments arguments) {
                return ToolResult.of(Map.of());
            }
        };

        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> new ToolRegistry(List.of(noSchema), EnumSet.allOf(ToolSurface.class)));
        assertTrue(e.getMessage().contains("no_schema_here"));
    }

    @Test
    void descriptors_publish_schema_annotations_and_meta() {
        ToolRegistry registry = new ToolRegistry(
                List.of(new ListWorkdirsTool(new ListWorkdirsService(Fixtures.twoWorkdirs())), new BinaryOnlyTool()),
                EnumSet.allOf(ToolSurface.class));

        JsonNode list = registry.descriptors().get(0);
        assertEquals("list_workdirs", list.get("name").textValue());
        assertEquals("object", list.at("/inputSchema/type").textValue());
        assertEquals("object", list.at("/outputSchema/type").textValue());
        assertEquals(
                Json.WIRE.createObjectNode().put("readOnlyHint", true).put("openWorldHint", false),
                list.get("annotations"));
        JsonNode binary = registry.descriptors().get(1);
        assertEquals(
                Json.WIRE
                        .createObjectNode()
                        .put("readOnlyHint", false)
                        .put("destructiveHint", false)
                        .put("idempotentHint", false)
                        .put("openWorldHint", false),
                binary.get("annotations"));
        assertEquals("file", binary.at("/_meta/openai~1fileParams/0").textValue());
    }

    /** A test tool with a two-field schema: fails for {@code missing.txt}, crashes for {@code boom}. */
    static final class EchoTool implements McpTool {
        @Override
        public ToolSpec spec() {
            return new ToolSpec("echo_path", "Echo a path.", ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM);
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            String path = arguments.requiredString("path");
            return switch (path) {
                case "missing.txt" ->
                    throw new ServerFsException(
                            ErrorCode.PATH_NOT_FOUND,
                            arguments.requiredString("workdir") + ":" + path + " — no such file");
                case "boom" -> throw new IllegalStateException("/srv/host/path exploded");
                default -> ToolResult.of(Map.of("path", path));
            };
        }
    }

    /** An Agent-surface tool: succeeds or fails as its {@code outcome} argument says. */
    static final class PokeTaskTool implements McpTool {
        @Override
        public ToolSpec spec() {
            return new ToolSpec("poke_task", "Poke a task.", ToolAnnotations.readOnly(), ToolSurface.AGENT);
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            if (arguments.requiredString("outcome").equals("missing")) {
                throw new ServerFsException(ErrorCode.AGENT_TASK_NOT_FOUND, "unknown task");
            }
            return ToolResult.of(Map.of()).withCounter("returned", 1);
        }
    }

    /** A binary-surface tool with {@code _meta}. */
    static final class BinaryOnlyTool implements McpTool {
        @Override
        public ToolSpec spec() {
            return new ToolSpec(
                    "upload_thing",
                    "Upload.",
                    ToolAnnotations.mutating(false, false, false),
                    ToolSurface.BINARY,
                    Map.of("openai/fileParams", List.of("file")));
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            return ToolResult.of(Map.of());
        }
    }
}
