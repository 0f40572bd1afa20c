package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.adapters.mcp.McpServer;
import dev.serverfs.adapters.mcp.McpSettings;
import dev.serverfs.adapters.mcp.McpTool;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The conformance suite's scenarios that call its own fixture tools ({@code test_*}), run against ServerFS's MCP
 * transport wired with a test-only surface of those tools (never part of the shipped {@code serve}), in both eras.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FixtureSurfaceIT {

    private McpServer server;
    private String url;

    /** A fixture tool without arguments (it borrows {@code list_workdirs}' empty, closed input schema). */
    private record Fixture(String name, Supplier<ToolResult> handler, Set<String> needs) implements McpTool {

        Fixture(String name, Supplier<ToolResult> handler) {
            this(name, handler, Set.of());
        }

        @Override
        public Set<String> requiredClientCapabilities() {
            return needs;
        }

        @Override
        public ToolSpec spec() {
            return new ToolSpec(name, "Conformance fixture " + name, ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM)
                    .withSchema("list_workdirs");
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            return handler.get();
        }
    }

    @BeforeAll
    void start() {
        List<McpTool> fixtures = List.of(
                new Fixture(
                        "test_simple_text",
                        () -> ToolResult.of(Map.of()).withText("This is a simple text response for testing.")),
                new Fixture("test_missing_capability", () -> ToolResult.of(Map.of()), Set.of("sampling")),
                // The transport never sends a request or a log message on a response: these two answer plainly.
                new Fixture("test_streaming_elicitation", () -> ToolResult.of(Map.of())),
                new Fixture("test_logging_tool", () -> ToolResult.of(Map.of())),
                new Fixture("test_error_handling", () -> {
                    throw new ServerFsException(
                            ErrorCode.INVALID_ARGUMENTS, "This tool intentionally returns an error for testing");
                }));
        server = McpServer.start(McpSettings.loopback(0, 64 * 1024, "fixture"), new Slf4jAuditLog(), fixtures);
        url = "http://127.0.0.1:" + server.port() + "/mcp";
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void fixture_tool_scenarios_pass_in_both_eras() throws Exception {
        Path tools = McpYardsticks.install();
        List<String> failures = new ArrayList<>();
        for (String version : List.of("2026-07-28", "2025-11-25")) {
            for (String scenario : List.of("tools-call-simple-text", "tools-call-error")) {
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
     * applies only to those).
     */
    @Test
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
