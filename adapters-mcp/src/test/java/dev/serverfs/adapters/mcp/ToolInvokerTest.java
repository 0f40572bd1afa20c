package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.mcp.tools.agent.AgentTools;
import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
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
        ToolInvoker invoker = invoker(Fixtures.listWorkdirsTool());

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
        invoker(Fixtures.listWorkdirsTool()).call("list_workdirs", json("{}"));

        assertEquals(1, audit.events().size());
        AuditLog.ToolCall event = audit.events().getFirst();
        assertEquals("list_workdirs", event.tool());
        assertTrue(event.success());
        assertEquals(Optional.empty(), event.errorCode());
        assertEquals(Map.of("returned", 2), event.counters());
    }

    @Test
    void missing_arguments_read_as_an_empty_object() {
        ToolInvoker.Outcome outcome = invoker(Fixtures.listWorkdirsTool()).call("list_workdirs", null);

        assertInstanceOf(ToolInvoker.Outcome.Result.class, outcome);
    }

    @Test
    void unknown_tool_is_invalid_params_and_not_audited() throws Exception {
        ToolInvoker.Outcome outcome = invoker().call("no_such_tool", json("{}"));

        ToolInvoker.Outcome.Failure failure = assertInstanceOf(ToolInvoker.Outcome.Failure.class, outcome);
        assertEquals(-32602, failure.code());
        assertEquals("Unknown tool: no_such_tool", failure.message());
        assertTrue(audit.events().isEmpty());
        ToolInvoker.Outcome.Failure huge = assertInstanceOf(
                ToolInvoker.Outcome.Failure.class, invoker().call("x".repeat(500_000) + "\n", json("{}")));
        assertTrue(huge.message().length() < 5_000, "a 500 KB name is not echoed whole");
    }

    @Test
    void arguments_failing_the_schema_are_an_invalid_arguments_tool_error_audited_once() throws Exception {
        // MCP 2025-11-25 SEP-1303: the model sees the error and can correct its call (was -32602 before issue 10 §13).
        ToolInvoker invoker = invoker(new EchoTool());

        ToolInvoker.Outcome outcome = invoker.call("echo_path", json("{\"workdir\":\"docs\",\"path\":7}"));

        ObjectNode result =
                assertInstanceOf(ToolInvoker.Outcome.Result.class, outcome).result();
        assertTrue(result.get("isError").booleanValue());
        String text = result.at("/content/0/text").textValue();
        assertTrue(text.startsWith("INVALID_ARGUMENTS: Invalid arguments for tool echo_path: "), text);
        assertTrue(text.contains("path"), text);
        assertFalse(result.has("structuredContent"));
        assertEquals(1, audit.events().size());
        assertEquals(Optional.of("INVALID_ARGUMENTS"), audit.events().getFirst().errorCode());
        assertEquals(Optional.of("docs"), audit.events().getFirst().workdir());
    }

    @Test
    void unknown_top_level_arguments_are_ignored_and_never_reach_the_tool() throws Exception {
        // Issue 10 §12: Gemini CLI adds wait_for_previous to calls.
        ToolInvoker workdirs = invoker(Fixtures.listWorkdirsTool());
        assertFalse(
                workdirs.call("list_workdirs", json("{\"wait_for_previous\":true,\"x\":[1]}"))
                        instanceof ToolInvoker.Outcome.Failure);
        List<String> seen = new ArrayList<>();
        McpTool names = new McpTool() {
            @Override
            public ToolSpec spec() {
                return new ToolSpec("echo_path", "Echoes.", ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM);
            }

            @Override
            public ToolResult call(ToolArguments arguments) {
                seen.addAll(arguments.names());
                return ToolResult.of(Map.of());
            }
        };

        ObjectNode result = assertInstanceOf(
                        ToolInvoker.Outcome.Result.class,
                        invoker(names)
                                .call(
                                        "echo_path",
                                        json("{\"wait_for_previous\":true,\"workdir\":\"docs\",\"path\":\"a\","
                                                + "\"rm\":\"-rf\"}")))
                .result();

        assertFalse(result.get("isError").booleanValue());
        assertEquals(List.of("workdir", "path"), seen);
    }

    @Test
    void a_number_beyond_double_range_is_an_invalid_argument_not_an_internal_error() throws Exception {
        // found by McpFuzzTest: {"runtime": 1E+400} reached the schema validator as a non-finite double
        AgentUseCases unused = Fixtures.unusedAgent();
        ToolInvoker agent = invoker(
                new AgentTools(unused, Fixtures.runtimes(false)).definitions().toArray(McpTool[]::new));
        for (String huge : List.of("1E+400", "-1e400")) {
            ObjectNode result = assertInstanceOf(
                            ToolInvoker.Outcome.Result.class,
                            agent.call("submit_agent_task", json("{\"runtime\":" + huge + "}")))
                    .result();

            assertTrue(result.get("isError").booleanValue(), huge);
            assertTrue(result.at("/content/0/text").textValue().startsWith("INVALID_ARGUMENTS: "), huge);
        }
    }

    @Test
    void a_known_argument_is_still_validated_beside_unknown_ones() throws Exception {
        ObjectNode result = assertInstanceOf(
                        ToolInvoker.Outcome.Result.class,
                        invoker(new EchoTool())
                                .call("echo_path", json("{\"workdir\":\"docs\",\"path\":[],\"extra\":1}")))
                .result();

        assertTrue(result.get("isError").booleanValue());
        assertTrue(result.at("/content/0/text").textValue().startsWith("INVALID_ARGUMENTS: "));
    }

    @Test
    void a_failing_audit_log_never_changes_the_result() throws Exception {
        AuditLog broken = event -> {
            throw new IllegalStateException("disk full");
        };
        ToolInvoker invoker = new ToolInvoker(
                new ToolRegistry(
                        List.of(Fixtures.listWorkdirsTool(), new EchoTool()), EnumSet.allOf(ToolSurface.class)),
                broken);

        ObjectNode ok = assertInstanceOf(ToolInvoker.Outcome.Result.class, invoker.call("list_workdirs", null))
                .result();
        ObjectNode failed = assertInstanceOf(
                        ToolInvoker.Outcome.Result.class,
                        invoker.call("echo_path", json("{\"workdir\":\"docs\",\"path\":\"missing.txt\"}")))
                .result();

        assertFalse(ok.get("isError").booleanValue());
        assertTrue(failed.at("/content/0/text").textValue().startsWith("PATH_NOT_FOUND: "));
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
    void a_call_audits_only_the_agent_visible_path_and_a_well_formed_alias() throws Exception {
        ToolInvoker invoker = invoker(new EchoTool());
        String huge = "\u0001".repeat(1_000_000);
        String[][] calls = {
            {"docs", "/srv/host/secret.txt"}, // absolute: a host path
            {"docs", "~/secret.txt"},
            {"docs", "sub/../../outside/secret.txt"}, // escapes the workdir
            {"docs", "a/" + "b".repeat(5000)}, // longer than any path
            {"docs", huge},
            {huge, "missing.txt"}, // no alias is this long
            {"not an alias!", "missing.txt"},
        };
        for (String[] call : calls) {
            ObjectNode arguments = Json.object();
            arguments.put("workdir", call[0]);
            arguments.put("path", call[1]);
            invoker.call("echo_path", arguments);
        }
        invoker.call("echo_path", json("{\"workdir\":\"docs\",\"path\":\"./sub//missing.txt\"}"));

        List<AuditLog.ToolCall> events = audit.events();
        assertEquals(calls.length + 1, events.size());
        for (int i = 0; i < 5; i++) {
            assertEquals(Optional.of("docs"), events.get(i).workdir(), "event " + i);
            assertEquals(Optional.empty(), events.get(i).path(), "event " + i);
        }
        for (int i = 5; i < 7; i++) {
            assertEquals(Optional.empty(), events.get(i).workdir(), "event " + i);
            assertEquals(Optional.of("missing.txt"), events.get(i).path(), "event " + i);
        }
        assertEquals(Optional.of("./sub//missing.txt"), events.getLast().path(), "a plain relative path as sent");
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
    void the_wire_form_is_byte_for_byte_the_plain_jackson_rendering_of_the_same_result() throws Exception {
        String tricky = "q\"b\\s/n\nt\tc\u0001 \u00e9 \uD83D\uDE00 \u2028 </end>";
        ObjectNode echo = Json.WIRE.createObjectNode().put("workdir", "docs").put("path", tricky);
        assertWireIsPlainRendering(
                invoker(new EchoTool()).call("echo_path", echo), Json.PAYLOAD.valueToTree(Map.of("path", tricky)));
        McpTool workdirs = Fixtures.listWorkdirsTool();
        assertWireIsPlainRendering(
                invoker(workdirs).call("list_workdirs", json("{}")),
                Json.PAYLOAD.valueToTree(
                        workdirs.call(new ToolArguments(Json.object())).payload()));
    }

    /** The rendering before payloads were written once: a tree, its text, then the response from both. */
    private static void assertWireIsPlainRendering(ToolInvoker.Outcome outcome, JsonNode tree) throws Exception {
        ObjectNode plain = Json.object();
        plain.putArray("content").addObject().put("type", "text").put("text", Json.WIRE.writeValueAsString(tree));
        plain.set("structuredContent", tree);
        plain.put("isError", false);
        ObjectNode wire =
                assertInstanceOf(ToolInvoker.Outcome.Result.class, outcome).wire();
        assertEquals(Json.WIRE.writeValueAsString(plain), new String(Json.writeBytes(wire), StandardCharsets.UTF_8));
        assertEquals(
                plain,
                assertInstanceOf(ToolInvoker.Outcome.Result.class, outcome).result());
    }

    @Test
    void a_control_character_is_left_to_jacksons_own_string_encoder() {
        byte[] json = "{\"a\":\"\u0001\\\"\"}".getBytes(StandardCharsets.UTF_8);
        assertEquals(null, EncodedJson.quote(json));
        assertEquals(
                new String(
                        Json.writeBytes(Json.WIRE.createArrayNode().add(new String(json, StandardCharsets.UTF_8))),
                        StandardCharsets.UTF_8),
                new String(
                        Json.writeBytes(Json.WIRE.createArrayNode().add(EncodedJson.string(json))),
                        StandardCharsets.UTF_8));
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
    void every_published_schema_types_every_property_and_closes_the_top_level() throws Exception {
        // Issue 10 §12 and §15: clients validate against these schemas before calling. Issue 24 item 10: the top level
        // is closed for strict-schema clients; unknown arguments are dropped before validation (tests above).
        Path folder = Path.of(ToolRegistry.class
                        .getResource(ToolRegistry.SCHEMA_FOLDER + "list_workdirs.json")
                        .toURI())
                .getParent();
        List<Path> inputs;
        try (Stream<Path> files = Files.list(folder)) {
            inputs = files.filter(f -> !f.toString().endsWith(".output.json")).toList();
        }
        assertTrue(inputs.size() >= 22, inputs.toString());
        for (Path file : inputs) {
            JsonNode schema = Json.WIRE.readTree(file.toFile());
            JsonNode extra = schema.path("additionalProperties");
            assertTrue(extra.isBoolean() && !extra.booleanValue(), file.toString());
            assertEveryPropertyTyped(schema, file.getFileName().toString());
        }
    }

    private static void assertEveryPropertyTyped(JsonNode schema, String where) {
        schema.path("properties").properties().forEach(p -> {
            JsonNode property = p.getValue();
            String at = where + "#" + p.getKey();
            assertTrue(property.has("type") || property.has("anyOf"), at);
            property.path("anyOf").forEach(alternative -> {
                assertTrue(alternative.has("type"), at);
                assertEveryPropertyTyped(alternative, at);
            });
            assertEveryPropertyTyped(property, at);
            if (property.has("items")) {
                assertTrue(property.get("items").has("type"), at + "[]");
                assertEveryPropertyTyped(property.get("items"), at + "[]");
            }
        });
    }

    @Test
    void descriptors_publish_schema_annotations_and_meta() {
        ToolRegistry registry = new ToolRegistry(
                List.of(Fixtures.listWorkdirsTool(), new BinaryOnlyTool()), EnumSet.allOf(ToolSurface.class));

        JsonNode list = registry.descriptors().get(0);
        assertEquals("list_workdirs", list.get("name").textValue());
        assertEquals("List workdirs", list.get("title").textValue());
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
