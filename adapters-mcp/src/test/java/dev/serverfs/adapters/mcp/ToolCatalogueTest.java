package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.serverfs.adapters.mcp.tools.BinaryTools;
import dev.serverfs.adapters.mcp.tools.FilesystemMutationTools;
import dev.serverfs.adapters.mcp.tools.FilesystemReadTools;
import dev.serverfs.adapters.mcp.tools.agent.AgentTools;
import dev.serverfs.application.port.in.AgentUseCases;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The "a tool is one definition in its group" claim (issue 11 §2): the four group classes define every contract tool
 * exactly once, each group on one surface; every schema resource belongs to exactly one definition; and every
 * definition's parameter record names exactly the properties its schema publishes, so binding can neither miss an
 * argument nor expect one the schema does not offer.
 */
class ToolCatalogueTest {

    private static final PropertyNamingStrategies.SnakeCaseStrategy SNAKE =
            new PropertyNamingStrategies.SnakeCaseStrategy();

    /** Every group, in registration order, with the surface all of its tools are on. */
    private static Map<List<McpTool>, ToolSurface> groups(boolean ingress, boolean fake) {
        AgentUseCases unusedAgent = Fixtures.unusedAgent();
        Map<List<McpTool>, ToolSurface> groups = new LinkedHashMap<>();
        groups.put(
                new FilesystemReadTools(List::of, q -> null, q -> null, q -> null, q -> null, q -> null).definitions(),
                ToolSurface.FILESYSTEM);
        groups.put(
                new FilesystemMutationTools(c -> null, c -> null, c -> null, c -> null, c -> null).definitions(),
                ToolSurface.FILESYSTEM);
        groups.put(new BinaryTools(q -> null, c -> null, ingress).definitions(), ToolSurface.BINARY);
        groups.put(new AgentTools(unusedAgent, Fixtures.runtimes(fake)).definitions(), ToolSurface.AGENT);
        return groups;
    }

    static List<McpTool> all(boolean ingress, boolean fake) {
        return groups(ingress, fake).keySet().stream().flatMap(List::stream).toList();
    }

    @Test
    void the_groups_define_each_contract_tool_once_in_tools_list_order_each_group_on_one_surface() {
        List<String> names =
                all(false, false).stream().map(t -> t.spec().name()).toList();

        assertEquals(
                List.of(
                        "list_workdirs",
                        "list_directory",
                        "find_files",
                        "search_text",
                        "read_text_file",
                        "stat_file",
                        "create_text_file",
                        "edit_text_file",
                        "delete_file",
                        "create_directory",
                        "delete_directory",
                        "download_binary_file",
                        "upload_binary_file",
                        "list_agent_runtimes",
                        "submit_agent_task",
                        "get_agent_task",
                        "read_agent_task_events",
                        "read_agent_task_result",
                        "respond_agent_approval",
                        "answer_agent_question",
                        "send_agent_message",
                        "cancel_agent_task"),
                names);
        assertEquals(names.size(), new HashSet<>(names).size(), "names are unique");
        groups(true, true)
                .forEach((group, surface) -> group.forEach(t -> {
                    assertEquals(surface, t.spec().surface(), t.spec().name());
                    assertInstanceOf(
                            ToolDefinition.class, definition(t), t.spec().name());
                }));
        // Everything registers: the registry accepts every variant with every surface enabled.
        for (boolean ingress : new boolean[] {false, true}) {
            for (boolean fake : new boolean[] {false, true}) {
                ToolRegistry registry = new ToolRegistry(all(ingress, fake), Set.of(ToolSurface.values()));
                assertEquals(names, List.copyOf(registry.names()));
            }
        }
    }

    @Test
    void every_schema_resource_belongs_to_exactly_one_definition() throws Exception {
        Set<String> used = new TreeSet<>();
        List<String> claimed = new ArrayList<>();
        for (boolean ingress : new boolean[] {false, true}) {
            for (boolean fake : new boolean[] {false, true}) {
                for (McpTool tool : all(ingress, fake)) {
                    String schema = tool.spec().schema();
                    if (used.add(schema + ".json")) {
                        claimed.add(schema);
                    }
                    if (ToolRegistry.class.getResource(ToolRegistry.SCHEMA_FOLDER + schema + ".output.json") != null) {
                        used.add(schema + ".output.json");
                    }
                }
            }
        }
        Set<String> present;
        // The production schema folder (the test classpath has a folder of the same name with test-only schemas).
        Path folder = Path.of(ToolRegistry.class
                        .getResource(ToolRegistry.SCHEMA_FOLDER + "list_workdirs.json")
                        .toURI())
                .getParent();
        try (Stream<Path> files = Files.list(folder)) {
            present = files.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(present, used, "schema resources without a tool, or tools without a schema");
        assertEquals(claimed.size(), new HashSet<>(claimed).size(), "no two definitions share a schema");
    }

    @Test
    void every_parameter_record_names_exactly_the_properties_of_its_schema() throws Exception {
        for (boolean fake : new boolean[] {false, true}) {
            for (McpTool tool : all(true, fake)) {
                ToolDefinition<?> definition = definition(tool);
                JsonNode schema;
                try (InputStream in = resource(definition.spec().schema() + ".json")) {
                    schema = Json.WIRE.readTree(in);
                }
                Set<String> properties = new TreeSet<>();
                schema.path("properties").fieldNames().forEachRemaining(properties::add);
                Set<String> components = Arrays.stream(definition.parameters().getRecordComponents())
                        .map(RecordComponent::getName)
                        .map(SNAKE::translate)
                        .collect(Collectors.toCollection(TreeSet::new));
                assertEquals(properties, components, definition.spec().name());
                assertTrue(definition.parameters().isRecord());
            }
        }
    }

    @Test
    void submit_publishes_the_runtimes_it_is_given_as_its_runtime_enum_in_place() throws Exception {
        for (List<String> runtimes : List.of(List.of("codex", "claude"), List.of("codex", "claude", "fake"))) {
            ToolRegistry registry = new ToolRegistry(
                    new AgentTools(Fixtures.unusedAgent(), runtimes).definitions(), Set.of(ToolSurface.AGENT));
            JsonNode runtime = registry.find("submit_agent_task")
                    .orElseThrow()
                    .descriptor()
                    .at("/inputSchema/properties/runtime");
            List<String> offered = new ArrayList<>();
            runtime.path("enum").forEach(n -> offered.add(n.asText()));
            assertEquals(runtimes, offered);
            List<String> keys = new ArrayList<>();
            runtime.fieldNames().forEachRemaining(keys::add);
            assertEquals(List.of("type", "enum", "description"), keys, "the resource's key order");
        }
        // The resource leaves the enum empty: the registry refuses to publish it unfilled, or filled with nothing.
        try (InputStream in = resource("submit_agent_task.json")) {
            assertEquals(
                    0, Json.WIRE.readTree(in).at("/properties/runtime/enum").size());
        }
        List<McpTool> unfilled = List.of(ToolDefinition.of(
                new ToolSpec("submit_agent_task", "unfilled", ToolAnnotations.readOnly(), ToolSurface.AGENT),
                () -> null));
        assertThrows(IllegalStateException.class, () -> new ToolRegistry(unfilled, Set.of(ToolSurface.AGENT)));
        assertThrows(
                IllegalStateException.class,
                () -> new ToolRegistry(
                        new AgentTools(Fixtures.unusedAgent(), List.of()).definitions(), Set.of(ToolSurface.AGENT)));
    }

    private static InputStream resource(String file) {
        return ToolRegistry.class.getResourceAsStream(ToolRegistry.SCHEMA_FOLDER + file);
    }

    /** The tool's definition: itself, or the definition a task-capable tool runs as a plain call. */
    private static ToolDefinition<?> definition(McpTool tool) {
        return tool instanceof TaskToolDefinition<?> task ? task.definition() : (ToolDefinition<?>) tool;
    }
}
