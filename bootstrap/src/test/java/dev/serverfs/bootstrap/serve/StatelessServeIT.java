package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end, the MCP 2026-07-28 (stateless) era of a real {@code serverfs serve} child process, judged by the
 * official conformance suite 0.2.0-alpha.12; {@link ServeIT} keeps the 2025-11-25 gate on its own process.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StatelessServeIT {

    private ServeProcess serve;
    private String url;

    @BeforeAll
    void start_serve(@TempDir Path dir) throws Exception {
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(docs.resolve("README.md"), "hello\n");
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_LOG_LEVEL", "INFO");
        env.put("WORKDIR_01_ALIAS", "docs");
        env.put("WORKDIR_01_PATH", docs.toString());
        serve = ServeProcess.start(env);
        url = serve.awaitUrl(Duration.ofSeconds(60));
    }

    @AfterAll
    void stop_serve() throws InterruptedException {
        if (serve != null) {
            serve.close();
        }
    }

    /** The 2026-07-28 server scenarios whose checks use only ServerFS's own tools. */
    static final List<String> STATELESS_SCENARIOS = List.of(
            "server-stateless",
            "tools-list",
            "caching",
            "sep-2164-resource-not-found",
            "http-header-validation",
            "dns-rebinding-protection",
            "server-sse-multiple-streams");

    /**
     * Every check of those scenarios passes (or is informational or skipped as not applicable), except the ones
     * that call a fixture tool of the suite ({@code test_missing_capability}, {@code test_streaming_elicitation},
     * {@code test_logging_tool}), which ServerFS's own tool surface does not have.
     */
    @Test
    void official_2026_07_28_scenarios_pass_statelessly_and_audit_lines_name_the_era() throws Exception {
        Path tools = McpYardsticks.install();
        Set<String> fixtureOnly = Set.of(
                "sep-2575-server-rejects-undeclared-capability",
                "sep-2575-missing-capability-http-400",
                "sep-2575-http-server-no-independent-requests-on-stream",
                "sep-2575-server-no-log-without-loglevel");
        List<String> failures = new ArrayList<>();
        for (String scenario : STATELESS_SCENARIOS) {
            McpYardsticks.Scenario run = McpYardsticks.alphaScenario(tools, url, "2026-07-28", scenario, "2026-07-28");
            List<JsonNode> checks = run.checks();
            if (checks.isEmpty()) {
                failures.add(scenario + ": no checks recorded\n" + run.run().output());
            }
            for (JsonNode check : checks) {
                String id = check.path("id").asText();
                String status = check.path("status").asText();
                boolean passed = Set.of("SUCCESS", "SKIPPED", "INFO").contains(status);
                if (!passed && !fixtureOnly.contains(id)) {
                    failures.add(scenario + " " + id + " " + status + ": "
                            + check.path("errorMessage").asText());
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
        // http-header-validation calls the first tool (list_workdirs) statelessly: its audit line names the era.
        assertTrue(
                serve.awaitLine(
                                l -> l.contains("\"event\":\"tool_call\"") && l.contains("\"era\":\"2026-07-28\""),
                                Duration.ofSeconds(10))
                        .isPresent(),
                serve.stderr().toString());
    }
}
