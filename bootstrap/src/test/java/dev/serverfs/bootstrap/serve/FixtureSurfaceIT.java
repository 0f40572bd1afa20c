package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.adapters.mcp.CompletionProvider;
import dev.serverfs.adapters.mcp.ContentBlock;
import dev.serverfs.adapters.mcp.McpFeatures;
import dev.serverfs.adapters.mcp.McpServer;
import dev.serverfs.adapters.mcp.McpSettings;
import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.PromptDefinition;
import dev.serverfs.adapters.mcp.PromptDefinition.Argument;
import dev.serverfs.adapters.mcp.PromptDefinition.Message;
import dev.serverfs.adapters.mcp.PromptDefinition.Role;
import dev.serverfs.adapters.mcp.ResourceContents;
import dev.serverfs.adapters.mcp.ResourceProvider;
import dev.serverfs.adapters.mcp.Slf4jAuditLog;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The conformance suite's scenarios that use its own fixtures ({@code test_*} tools, prompts, {@code test://}
 * resources, completion), run against ServerFS's MCP transport wired with a test-only surface of them (never part of
 * the shipped {@code serve}), in both eras.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FixtureSurfaceIT {

    private McpServer server;
    private String url;

    /** A 1x1 red PNG. */
    private static final byte[] PNG = Base64.getDecoder()
            .decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==");

    /** An empty mono 16-bit WAV file (its header only). */
    private static final byte[] WAV =
            Base64.getDecoder().decode("UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=");

    private static final Pattern TEMPLATE = Pattern.compile("test://template/([^/]+)/data");

    /**
     * A fixture tool; without a schema of its own it borrows {@code list_workdirs}' empty, closed input schema (the
     * test resource {@code json_schema_2020_12_tool.json} is the suite's 2020-12 fixture schema).
     */
    private record Fixture(String name, String schema, Function<ToolArguments, ToolResult> handler, Set<String> needs)
            implements McpTool {

        Fixture(String name, Function<ToolArguments, ToolResult> handler) {
            this(name, "list_workdirs", handler, Set.of());
        }

        @Override
        public Set<String> requiredClientCapabilities() {
            return needs;
        }

        @Override
        public ToolSpec spec() {
            return new ToolSpec(name, "Conformance fixture " + name, ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM)
                    .withSchema(schema);
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            return handler.apply(arguments);
        }
    }

    private static ToolResult content(ContentBlock... blocks) {
        return ToolResult.of(Map.of()).withContent(List.of(blocks));
    }

    private static ContentBlock.Resource text(String uri, String mimeType, String text) {
        return new ContentBlock.Resource(new ResourceContents.Text(uri, mimeType, text));
    }

    /** The suite's {@code test://} resources: two static ones and the template {@code test://template/{id}/data}. */
    private static final class TestResources implements ResourceProvider {

        @Override
        public List<Resource> resources() {
            return List.of(
                    new Resource("test://static-text", "static-text", "A static text resource", "text/plain"),
                    new Resource("test://static-binary", "static-binary", "A static binary resource", "image/png"));
        }

        @Override
        public List<Template> templates() {
            return List.of(
                    new Template("test://template/{id}/data", "template-data", "Data for one id", "application/json"));
        }

        @Override
        public Optional<List<ResourceContents>> read(String uri) {
            if (uri.equals("test://static-text")) {
                return Optional.of(List.of(new ResourceContents.Text(
                        uri, "text/plain", "This is the content of the static text resource.")));
            }
            if (uri.equals("test://static-binary")) {
                return Optional.of(List.of(new ResourceContents.Blob(uri, "image/png", PNG)));
            }
            Matcher m = TEMPLATE.matcher(uri);
            if (m.matches()) {
                String id = m.group(1);
                return Optional.of(List.of(new ResourceContents.Text(
                        uri,
                        "application/json",
                        "{\"id\":\"" + id + "\",\"templateTest\":true,\"data\":\"Data for ID: " + id + "\"}")));
            }
            return Optional.empty();
        }
    }

    private static List<PromptDefinition> prompts() {
        return List.of(
                new PromptDefinition(
                        "test_simple_prompt",
                        "A simple prompt",
                        List.of(),
                        args -> List.of(
                                new Message(Role.USER, new ContentBlock.Text("This is a simple prompt for testing.")))),
                new PromptDefinition(
                        "test_prompt_with_arguments",
                        "A prompt with two arguments",
                        List.of(
                                new Argument("arg1", "First test argument", true),
                                new Argument("arg2", "Second test argument", true)),
                        args -> List.of(new Message(
                                Role.USER,
                                new ContentBlock.Text("Prompt with arguments: arg1='" + args.get("arg1") + "', arg2='"
                                        + args.get("arg2") + "'")))),
                new PromptDefinition(
                        "test_prompt_with_embedded_resource",
                        "A prompt embedding a resource",
                        List.of(new Argument("resourceUri", "URI of the resource to embed", true)),
                        args -> List.of(
                                new Message(
                                        Role.USER,
                                        text(
                                                args.get("resourceUri"),
                                                "text/plain",
                                                "Embedded resource content for testing.")),
                                new Message(
                                        Role.USER,
                                        new ContentBlock.Text("Please process the embedded resource above.")))),
                new PromptDefinition(
                        "test_prompt_with_image",
                        "A prompt with an image",
                        List.of(),
                        args -> List.of(
                                new Message(Role.USER, new ContentBlock.Image(PNG, "image/png")),
                                new Message(Role.USER, new ContentBlock.Text("Please analyze the image above.")))));
    }

    /** Completes {@code arg1} of {@code test_prompt_with_arguments} from a fixed list, by prefix. */
    private static List<String> complete(CompletionProvider.Reference ref, String argument, String value) {
        if (!ref.type().equals("ref/prompt") || !argument.equals("arg1")) {
            return List.of();
        }
        return List.of("paris", "park", "party").stream()
                .filter(v -> v.startsWith(value))
                .toList();
    }

    @BeforeAll
    void start() {
        List<McpTool> fixtures = List.of(
                new Fixture(
                        "test_simple_text",
                        a -> ToolResult.of(Map.of()).withText("This is a simple text response for testing.")),
                new Fixture(
                        "test_missing_capability", "list_workdirs", a -> ToolResult.of(Map.of()), Set.of("sampling")),
                // The transport never sends a request or a log message on a response: these two answer plainly.
                new Fixture("test_streaming_elicitation", a -> ToolResult.of(Map.of())),
                new Fixture("test_logging_tool", a -> ToolResult.of(Map.of())),
                new Fixture("test_error_handling", a -> {
                    throw new ServerFsException(
                            ErrorCode.INVALID_ARGUMENTS, "This tool intentionally returns an error for testing");
                }),
                new Fixture("test_image_content", a -> content(new ContentBlock.Image(PNG, "image/png"))),
                new Fixture("test_audio_content", a -> content(new ContentBlock.Audio(WAV, "audio/wav"))),
                new Fixture(
                        "test_embedded_resource",
                        a -> content(text(
                                "test://embedded-resource", "text/plain", "This is an embedded resource content."))),
                new Fixture(
                        "test_multiple_content_types",
                        a -> content(
                                new ContentBlock.Text("Multiple content types test:"),
                                new ContentBlock.Image(PNG, "image/png"),
                                text(
                                        "test://mixed-content-resource",
                                        "application/json",
                                        "{\"test\":\"data\",\"value\":123}"))),
                new Fixture("test_tool_with_progress", a -> {
                    for (int step = 0; step <= 100; step += 50) {
                        a.progress().report(step, 100.0, null);
                    }
                    return ToolResult.of(Map.of()).withText("Progress test completed");
                }),
                // Its region argument is mirrored into Mcp-Param-Region (x-mcp-header), which a stateless call must
                // match.
                new Fixture(
                        "test_header_param",
                        "test_header_param",
                        a -> ToolResult.of(Map.of()).withText("region " + a.requiredString("region")),
                        Set.of()),
                new Fixture(
                        "json_schema_2020_12_tool",
                        "json_schema_2020_12_tool",
                        a -> ToolResult.of(Map.of()).withText("ok"),
                        Set.of()));
        McpFeatures features =
                new McpFeatures(prompts(), Optional.of(new TestResources()), Optional.of(FixtureSurfaceIT::complete));
        server =
                McpServer.start(McpSettings.loopback(0, 64 * 1024, "fixture"), new Slf4jAuditLog(), fixtures, features);
        url = "http://127.0.0.1:" + server.port() + "/mcp";
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Every scenario of the suite that uses its own fixtures and lists both 2025-11-25 and 2026-07-28. */
    static final List<String> FIXTURE_SCENARIOS = List.of(
            "tools-call-simple-text",
            "tools-call-error",
            "tools-call-image",
            "tools-call-audio",
            "tools-call-embedded-resource",
            "tools-call-mixed-content",
            "tools-call-with-progress",
            "prompts-list",
            "prompts-get-simple",
            "prompts-get-with-args",
            "prompts-get-embedded-resource",
            "prompts-get-with-image",
            "completion-complete",
            "resources-list",
            "resources-read-text",
            "resources-read-binary",
            "resources-templates-read",
            "json-schema-2020-12");

    /**
     * Scenarios that exist only at 2026-07-28 and need the fixtures: an x-mcp-header tool, and (for caching's
     * resources/read hints, skipped on serve, which lists no resources) the test:// resources.
     */
    static final List<String> STATELESS_FIXTURE_SCENARIOS =
            List.of("http-custom-header-server-validation", "caching", "sep-2164-resource-not-found");

    @Test
    @Order(1)
    void fixture_scenarios_pass_in_both_eras() throws Exception {
        Path tools = McpYardsticks.install();
        List<String> failures = new ArrayList<>();
        for (String version : List.of("2026-07-28", "2025-11-25")) {
            List<String> scenarios = new ArrayList<>(FIXTURE_SCENARIOS);
            if (version.equals("2026-07-28")) {
                scenarios.addAll(STATELESS_FIXTURE_SCENARIOS);
            }
            for (String scenario : scenarios) {
                McpYardsticks.Scenario run =
                        McpYardsticks.alphaScenario(tools, url, "fixture-" + version, scenario, version);
                List<JsonNode> checks = run.checks();
                if (checks.isEmpty()) {
                    failures.add(version + " " + scenario + ": no checks recorded\n"
                            + run.run().output());
                }
                for (JsonNode check : checks) {
                    if (!check.path("status").asText().equals("SUCCESS")) {
                        failures.add(version + " " + scenario + " "
                                + check.path("id").asText() + " "
                                + check.path("status").asText() + ": "
                                + check.path("errorMessage").asText());
                    }
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /**
     * With the fixture tools, every check of server-stateless passes or is skipped: the subscription checks are
     * skipped because ServerFS advertises no list-changed or subscribe capability (2026-07-28 subscriptions/listen
     * applies only to those). Runs after the fixture scenarios: server-stateless gives its first real tool call only
     * 600 ms, which a cold JVM on a loaded machine can miss.
     */
    @Test
    @Order(2)
    void server_stateless_passes_whole_and_an_undeclared_client_capability_is_refused_with_32021() throws Exception {
        Path tools = McpYardsticks.install();
        McpYardsticks.Scenario run =
                McpYardsticks.alphaScenario(tools, url, "fixture-2026-07-28", "server-stateless", "2026-07-28");
        Map<String, String> status = new TreeMap<>();
        run.checks()
                .forEach(c -> status.put(c.path("id").asText(), c.path("status").asText()));
        assertTrue(
                "SUCCESS".equals(status.get("sep-2575-server-rejects-undeclared-capability"))
                        && "SUCCESS".equals(status.get("sep-2575-missing-capability-http-400"))
                        && status.values().stream().allMatch(v -> v.equals("SUCCESS") || v.equals("SKIPPED")),
                status + "\n" + run.run().output());
    }
}
