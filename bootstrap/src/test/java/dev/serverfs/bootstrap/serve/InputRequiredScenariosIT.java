package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.adapters.mcp.ContentBlock;
import dev.serverfs.adapters.mcp.InputRequest;
import dev.serverfs.adapters.mcp.InputRequired;
import dev.serverfs.adapters.mcp.InputRound;
import dev.serverfs.adapters.mcp.McpFeatures;
import dev.serverfs.adapters.mcp.McpServer;
import dev.serverfs.adapters.mcp.McpSettings;
import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.PromptDefinition;
import dev.serverfs.adapters.mcp.PromptReply;
import dev.serverfs.adapters.mcp.Slf4jAuditLog;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolReply;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The conformance suite's {@code input-required-result-*} scenarios (2026-07-28 multi round-trip requests, SEP-2322)
 * against ServerFS's MCP transport wired with a test-only surface of the suite's {@code test_input_required_result_*}
 * tools and prompt (never part of the shipped {@code serve}). Every check, SHOULD-level ones included, must be
 * SUCCESS.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InputRequiredScenariosIT {

    static final List<String> SCENARIOS = List.of(
            "input-required-result-basic-elicitation",
            "input-required-result-basic-sampling",
            "input-required-result-basic-list-roots",
            "input-required-result-request-state",
            "input-required-result-multiple-input-requests",
            "input-required-result-multi-round",
            "input-required-result-missing-input-response",
            "input-required-result-result-type",
            "input-required-result-unsupported-methods",
            "input-required-result-tampered-state",
            "input-required-result-capability-check",
            "input-required-result-ignore-extra-params",
            "input-required-result-validate-input",
            "input-required-result-non-tool-request");

    private McpServer server;
    private String url;

    /** A fixture tool without arguments that answers each round with {@code round}. */
    private record Fixture(String name, Function<InputRound, ToolReply> round) implements McpTool {

        @Override
        public ToolSpec spec() {
            return new ToolSpec(name, "Conformance fixture " + name, ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM)
                    .withSchema("list_workdirs");
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            throw new IllegalStateException(name + " answers through reply");
        }

        @Override
        public ToolReply reply(ToolArguments arguments, InputRound input) {
            return round.apply(input);
        }
    }

    private static ToolReply text(String text) {
        return new ToolReply.Complete(ToolResult.of(Map.of()).withText(text));
    }

    private static InputRequest askName(String message) {
        return InputRequest.form(message, Map.of("name", "string"));
    }

    private static InputRequest confirm() {
        return InputRequest.form("Please confirm", Map.of("ok", "boolean"));
    }

    /** Completes with the state's confirmation once {@code confirm} was answered on a retry that echoed the state. */
    private static ToolReply confirmed(InputRound round) {
        if (round.state().filter("confirm"::equals).isPresent() && round.answered("confirm")) {
            return text("state-ok");
        }
        return InputRequired.of(Map.of("confirm", confirm()), "confirm");
    }

    private static List<McpTool> fixtures() {
        return List.of(
                new Fixture(
                        "test_input_required_result_elicitation",
                        round -> round.accepted("user_name")
                                .<ToolReply>map(form -> text("Hello, " + form.get("name") + "!"))
                                .orElseGet(() -> InputRequired.of(Map.of("user_name", askName("What is your name?"))))),
                new Fixture(
                        "test_input_required_result_sampling",
                        round -> round.sampledText("capital_question")
                                .map(InputRequiredScenariosIT::text)
                                .orElseGet(() -> InputRequired.of(Map.of(
                                        "capital_question",
                                        InputRequest.sampling("What is the capital of France?", 100))))),
                new Fixture(
                        "test_input_required_result_list_roots",
                        round -> round.rootUris("client_roots")
                                .map(roots -> text("Roots: " + String.join(", ", roots)))
                                .orElseGet(() -> InputRequired.of(Map.of("client_roots", InputRequest.listRoots())))),
                new Fixture("test_input_required_result_request_state", InputRequiredScenariosIT::confirmed),
                new Fixture("test_input_required_result_tampered_state", InputRequiredScenariosIT::confirmed),
                new Fixture("test_input_required_result_multiple_inputs", round -> {
                    Optional<Map<String, Object>> name = round.accepted("user_name");
                    Optional<String> greeting = round.sampledText("greeting");
                    Optional<List<String>> roots = round.rootUris("client_roots");
                    if (round.state().isPresent() && name.isPresent() && greeting.isPresent() && roots.isPresent()) {
                        return text(greeting.get() + " " + name.get().get("name") + " ("
                                + roots.get().size() + " roots)");
                    }
                    Map<String, InputRequest> all = new LinkedHashMap<>();
                    all.put("user_name", askName("What is your name?"));
                    all.put("greeting", InputRequest.sampling("Generate a greeting", 50));
                    all.put("client_roots", InputRequest.listRoots());
                    return InputRequired.of(all, "multiple");
                }),
                new Fixture("test_input_required_result_multi_round", round -> {
                    String state = round.state().orElse("");
                    if (state.equals("round-2") && round.accepted("step2").isPresent()) {
                        return text("Favourite colour: "
                                + round.accepted("step2").get().get("color"));
                    }
                    if (state.equals("round-1") && round.accepted("step1").isPresent()) {
                        return InputRequired.of(
                                Map.of(
                                        "step2",
                                        InputRequest.form(
                                                "Step 2: What is your favorite color?", Map.of("color", "string"))),
                                "round-2");
                    }
                    return InputRequired.of(Map.of("step1", askName("Step 1: What is your name?")), "round-1");
                }),
                new Fixture("test_input_required_result_capabilities", round -> {
                    Map<String, InputRequest> possible = new LinkedHashMap<>();
                    possible.put("user_name", askName("What is your name?"));
                    possible.put("greeting", InputRequest.sampling("Generate a greeting", 50));
                    possible.put("client_roots", InputRequest.listRoots());
                    Map<String, InputRequest> askable = new LinkedHashMap<>();
                    possible.forEach((key, request) -> {
                        if (round.canAsk(request) && !round.answered(key)) {
                            askable.put(key, request);
                        }
                    });
                    return askable.isEmpty() ? text("Nothing to ask") : InputRequired.of(askable);
                }));
    }

    /** A prompt that asks for the context it uses, then answers one message with it. */
    private static PromptDefinition contextPrompt() {
        return new PromptDefinition(
                "test_input_required_result_prompt",
                "A prompt that needs the user's context",
                List.of(),
                (arguments, round) -> round.accepted("user_context")
                        .<PromptReply>map(form -> new PromptReply.Complete(List.of(new PromptDefinition.Message(
                                PromptDefinition.Role.USER,
                                new ContentBlock.Text("Use this context: " + form.get("context"))))))
                        .orElseGet(() -> InputRequired.of(Map.of(
                                "user_context",
                                InputRequest.form(
                                        "What context should the prompt use?", Map.of("context", "string"))))));
    }

    @BeforeAll
    void start() {
        server = McpServer.start(
                McpSettings.loopback(0, 64 * 1024, "fixture"),
                new Slf4jAuditLog(),
                fixtures(),
                new McpFeatures(List.of(contextPrompt()), Optional.empty(), Optional.empty()));
        url = "http://127.0.0.1:" + server.port() + "/mcp";
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void every_input_required_result_scenario_passes_every_check() throws Exception {
        Path tools = McpYardsticks.install();
        List<String> failures = new ArrayList<>();
        for (String scenario : SCENARIOS) {
            McpYardsticks.Scenario run = McpYardsticks.alphaScenario(tools, url, "mrtr", scenario, "2026-07-28");
            if (run.checks().isEmpty()) {
                failures.add(scenario + ": no checks recorded\n" + run.run().output());
            }
            for (JsonNode check : run.checks()) {
                if (!check.path("status").asText().equals("SUCCESS")) {
                    failures.add(scenario + " " + check.path("id").asText() + " "
                            + check.path("status").asText() + ": "
                            + check.path("errorMessage").asText()
                            + " " + check.path("details"));
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }
}
