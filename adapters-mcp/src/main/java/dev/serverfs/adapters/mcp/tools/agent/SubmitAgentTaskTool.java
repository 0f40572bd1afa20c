package dev.serverfs.adapters.mcp.tools.agent;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.Submission;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.SubmitAgentTaskCommand;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code submit_agent_task} (reference §3.2): returns at once with the queued task; a retry with the same
 * {@code idempotency_key} returns the original task. Audit: workdir, path, runtime, profile, correlation_id,
 * idempotency_key, task_id, status; never the prompt.
 */
public final class SubmitAgentTaskTool implements McpTool {

    private static final String DESCRIPTION = "Delegate one narrow objective to a coding agent working in a workdir."
            + " Returns at once with task_id and status queued; poll get_agent_task and read_agent_task_events,"
            + " answer approvals and questions, and read the result when the task ends. Pass an idempotency_key to"
            + " retry safely after a lost response.";

    static final ToolSpec SPEC = new ToolSpec(
            "submit_agent_task", DESCRIPTION, ToolAnnotations.mutating(true, false, true), ToolSurface.AGENT);

    /** The same tool whose {@code runtime} enum also offers the test-only {@code fake} runtime. */
    static final ToolSpec FAKE_SPEC = SPEC.withSchema("submit_agent_task.with_fake");

    private final SubmitAgentTaskUseCase useCase;
    private final ToolSpec spec;

    /** @param offerFake whether the published schema lists the test-only {@code fake} runtime */
    public SubmitAgentTaskTool(SubmitAgentTaskUseCase useCase, boolean offerFake) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
        this.spec = offerFake ? FAKE_SPEC : SPEC;
    }

    @Override
    public ToolSpec spec() {
        return spec;
    }

    @Override
    public ToolResult call(ToolArguments a) {
        String runtime = a.requiredString("runtime");
        String profile = a.string("profile").orElse("workspace-write");
        Submission submission = useCase.submit(new SubmitAgentTaskCommand(
                runtime,
                a.requiredString("workdir"),
                a.requiredString("prompt"),
                a.string("path").orElse(""),
                profile,
                a.string("continue_from_task_id").map(TaskId::parse),
                a.string("correlation_id"),
                a.string("idempotency_key")));
        Task task = submission.task();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("task_id", task.id().value());
        out.put("status", task.status().wire());
        out.put("correlation_id", task.correlationId().orElse(null));
        out.put("idempotency_key", task.idempotencyKey().orElse(null));
        ToolResult result = AgentViews.audited(ToolResult.of(out), Optional.of(task.id()))
                .withPath(task.relativeCwd())
                .withCounter("runtime", runtime)
                .withCounter("profile", task.profile().wire())
                .withCounter("status", task.status().wire());
        if (task.correlationId().isPresent()) {
            result = result.withCounter("correlation_id", task.correlationId().get());
        }
        if (task.idempotencyKey().isPresent()) {
            result = result.withCounter("idempotency_key", task.idempotencyKey().get());
        }
        return result;
    }
}
