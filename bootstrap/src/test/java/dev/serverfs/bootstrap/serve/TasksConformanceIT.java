package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.mcp.InputRequest;
import dev.serverfs.adapters.mcp.InputRequired;
import dev.serverfs.adapters.mcp.InputRound;
import dev.serverfs.adapters.mcp.McpServer;
import dev.serverfs.adapters.mcp.McpSettings;
import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.Slf4jAuditLog;
import dev.serverfs.adapters.mcp.TaskTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.adapters.mcp.ToolTask;
import dev.serverfs.adapters.mcp.ToolTasks;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The conformance suite's {@code tasks-*} scenarios (the Tasks extension, 2026-07-28) against ServerFS's MCP
 * transport wired with a test-only surface of the suite's task fixtures ({@code greet}, {@code slow_compute}, {@code
 * failing_job}, {@code protocol_error_job}, {@code confirm_delete}, {@code multi_input}, {@code test_tool_with_task})
 * over the same {@link TaskTool} seam the Agent's {@code submit_agent_task} uses; never part of the shipped {@code
 * serve}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TasksConformanceIT {

    /**
     * Every {@code tasks-*} scenario. {@code tasks-status-notifications} is skipped by the suite itself (its harness
     * awaits {@code subscriptions/listen}).
     */
    private static final List<String> SCENARIOS = List.of(
            "tasks-lifecycle",
            "tasks-mrtr-composition",
            "tasks-capability-negotiation",
            "tasks-wire-fields",
            "tasks-request-state-removal",
            "tasks-mrtr-input",
            "tasks-request-headers",
            "tasks-dispatch-and-envelope",
            "tasks-required-task-error",
            "tasks-status-notifications");

    private McpServer server;
    private String url;

    @BeforeAll
    void start() {
        FixtureTasks tasks = new FixtureTasks();
        List<McpTool> fixtures = List.of(
                new Greet(),
                new TaskFixture("slow_compute", Kind.SLOW, false, tasks),
                new TaskFixture("failing_job", Kind.FAILING, true, tasks),
                new TaskFixture("protocol_error_job", Kind.PROTOCOL_ERROR, false, tasks),
                new TaskFixture("confirm_delete", Kind.CONFIRM, false, tasks),
                new TaskFixture("multi_input", Kind.MULTI, false, tasks),
                new GatheringFixture(tasks));
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
    void every_tasks_scenario_passes() throws Exception {
        Path tools = McpYardsticks.install();
        List<String> failures = new ArrayList<>();
        for (String scenario : SCENARIOS) {
            McpYardsticks.Scenario run = McpYardsticks.extensionScenario(tools, url, "tasks", scenario);
            if (run.checks().isEmpty()) {
                failures.add(scenario + ": no checks recorded\n" + run.run().output());
            }
            for (JsonNode check : run.checks()) {
                String status = check.path("status").asText();
                boolean skippedBySuite = scenario.equals("tasks-status-notifications") && status.equals("SKIPPED");
                if (!status.equals("SUCCESS") && !skippedBySuite) {
                    failures.add(scenario + " " + check.path("id").asText() + " " + status + ": "
                            + check.path("errorMessage").asText());
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    // ------------------------------------------------------------------------------------------ fixtures

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The suite's sync-only {@code greet}: {@code Hello, <name>!}. */
    private record Greet() implements McpTool {
        @Override
        public ToolSpec spec() {
            return fixtureSpec("greet");
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            return ToolResult.of(Map.of())
                    .withText("Hello, " + arguments.string("name").orElse("World") + "!");
        }
    }

    private static ToolSpec fixtureSpec(String name) {
        return new ToolSpec(name, "Conformance fixture " + name, ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM)
                .withSchema("task_fixture");
    }

    private enum Kind {
        SLOW,
        FAILING,
        PROTOCOL_ERROR,
        CONFIRM,
        MULTI
    }

    /** A task-supporting fixture: a plain call runs the work inline, a task runs it in {@link FixtureTasks}. */
    private record TaskFixture(String name, Kind kind, boolean requiresTask, FixtureTasks tasks) implements TaskTool {
        @Override
        public ToolSpec spec() {
            return fixtureSpec(name);
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            return switch (kind) {
                case SLOW -> {
                    work(seconds(arguments));
                    yield computed(arguments);
                }
                case FAILING, PROTOCOL_ERROR -> throw failure();
                case CONFIRM, MULTI ->
                    throw new ServerFsException(ErrorCode.INVALID_ARGUMENTS, "this fixture needs a task for its input");
            };
        }

        @Override
        public Started start(ToolArguments arguments) {
            String id = tasks.start(kind, arguments);
            return new Started(id, ToolResult.of(Map.of()).withCounter("task_id", id));
        }
    }

    /**
     * The suite's {@code test_tool_with_task} (task required): asks for {@code user_name} over a multi round-trip
     * first, and the retry that answers it starts a task whose result greets that name.
     */
    private record GatheringFixture(FixtureTasks tasks) implements TaskTool {
        private static final String ASK = "user_name";

        @Override
        public ToolSpec spec() {
            return fixtureSpec("test_tool_with_task");
        }

        @Override
        public boolean requiresTask() {
            return true;
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            throw new ServerFsException(ErrorCode.INVALID_ARGUMENTS, "this fixture runs only as a task");
        }

        @Override
        public Started start(ToolArguments arguments) {
            throw new ServerFsException(ErrorCode.INVALID_ARGUMENTS, "this fixture asks for a name first");
        }

        @Override
        public StartReply start(ToolArguments arguments, InputRound round) {
            Optional<Object> name = round.accepted(ASK).map(content -> content.get("name"));
            if (name.isEmpty()) {
                return InputRequired.of(Map.of(ASK, InputRequest.form("Your name?", Map.of("name", "string"))));
            }
            String id = tasks.greet(String.valueOf(name.get()));
            return new Started(id, ToolResult.of(Map.of()).withCounter("task_id", id));
        }
    }

    private static double seconds(ToolArguments arguments) {
        return arguments.longValue("seconds").map(Long::doubleValue).orElse(0.0);
    }

    private static ToolResult computed(ToolArguments arguments) {
        return ToolResult.of(Map.of())
                .withText("Computed " + arguments.string("label").orElse("result"));
    }

    private static ServerFsException failure() {
        return new ServerFsException(ErrorCode.INVALID_ARGUMENTS, "this job always fails");
    }

    /** Simulated work: the fixture's own duration, interrupted by a cancel. */
    private static void work(double seconds) {
        try {
            Thread.sleep(Duration.ofMillis((long) (seconds * 1000)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The fixture tasks: one in-memory table, each task's state changed under its own lock. */
    private static final class FixtureTasks implements ToolTasks {
        private final Map<String, Entry> tasks = new ConcurrentHashMap<>();
        private final AtomicLong ids = new AtomicLong();

        private static final class Entry {
            final String id;
            final Instant created = Instant.now();
            Instant updated = created;
            ToolTask.State state = new ToolTask.State.Working();
            final Map<String, ToolTask.Form> pending = new LinkedHashMap<>();
            String subject = "";
            Thread worker;

            Entry(String id) {
                this.id = id;
            }

            synchronized void settle(ToolTask.State next) {
                if (state instanceof ToolTask.State.Working || state instanceof ToolTask.State.InputRequired) {
                    state = next;
                    updated = Instant.now();
                }
            }

            synchronized ToolTask view() {
                return new ToolTask(
                        id,
                        state,
                        created,
                        updated,
                        Optional.of(Duration.ofMinutes(10)),
                        Duration.ofMillis(200),
                        Optional.empty());
            }
        }

        String start(Kind kind, ToolArguments arguments) {
            Entry entry = new Entry("fixture-" + ids.incrementAndGet());
            tasks.put(entry.id, entry);
            synchronized (entry) {
                switch (kind) {
                    case SLOW ->
                        entry.worker = Thread.ofVirtual().start(() -> {
                            work(seconds(arguments));
                            entry.settle(new ToolTask.State.Completed(computed(arguments)));
                        });
                    case FAILING ->
                        entry.worker = Thread.ofVirtual().start(() -> {
                            work(1);
                            entry.settle(new ToolTask.State.CompletedWithError(failure()));
                        });
                    case PROTOCOL_ERROR ->
                        entry.worker = Thread.ofVirtual().start(() -> {
                            work(0.2);
                            entry.settle(new ToolTask.State.Failed(ErrorCode.INVALID_REQUEST, "the job broke"));
                        });
                    case CONFIRM -> {
                        entry.subject = arguments.string("filename").orElse("the file");
                        entry.pending.put(
                                entry.id + "-confirm", form("Delete " + entry.subject + "?", "confirm", "boolean"));
                        entry.state = new ToolTask.State.InputRequired(entry.pending);
                    }
                    case MULTI -> {
                        entry.pending.put(entry.id + "-name", form("Your name?", "name", "string"));
                        entry.pending.put(entry.id + "-confirm", form("Go ahead?", "confirm", "boolean"));
                        entry.state = new ToolTask.State.InputRequired(entry.pending);
                    }
                }
            }
            return entry.id;
        }

        /** A task that completes at once, greeting {@code name}. */
        String greet(String name) {
            Entry entry = new Entry("fixture-" + ids.incrementAndGet());
            tasks.put(entry.id, entry);
            entry.settle(new ToolTask.State.Completed(ToolResult.of(Map.of()).withText("Hello, " + name + "!")));
            return entry.id;
        }

        private static ToolTask.Form form(String message, String field, String type) {
            ObjectNode schema = JSON.createObjectNode();
            schema.put("type", "object");
            schema.putObject("properties").putObject(field).put("type", type);
            schema.putArray("required").add(field);
            return new ToolTask.Form(message, schema);
        }

        @Override
        public Optional<ToolTask> get(String taskId) {
            return Optional.ofNullable(tasks.get(taskId)).map(Entry::view);
        }

        @Override
        public ToolResult update(String taskId, Map<String, Response> responses) {
            Entry entry = tasks.get(taskId);
            synchronized (entry) {
                responses.keySet().forEach(entry.pending::remove);
                if (!(entry.state instanceof ToolTask.State.InputRequired)) {
                    return ToolResult.of(Map.of());
                }
                if (entry.pending.isEmpty()) {
                    boolean confirmed =
                            responses.values().stream().allMatch(r -> r.action() == ToolTasks.Action.ACCEPT);
                    entry.settle(new ToolTask.State.Completed(
                            ToolResult.of(Map.of()).withText((confirmed ? "Done with " : "Kept ") + entry.subject)));
                } else {
                    entry.state = new ToolTask.State.InputRequired(entry.pending);
                    entry.updated = Instant.now();
                }
            }
            return ToolResult.of(Map.of()).withCounter("task_id", taskId);
        }

        @Override
        public ToolResult cancel(String taskId) {
            Entry entry = tasks.get(taskId);
            entry.settle(new ToolTask.State.Cancelled());
            synchronized (entry) {
                if (entry.worker != null) {
                    entry.worker.interrupt();
                }
            }
            return ToolResult.of(Map.of()).withCounter("task_id", taskId);
        }
    }
}
