package dev.serverfs.adapters.mcp.tools.agent;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.CancelAgentTaskUseCase;
import dev.serverfs.application.port.in.CancelAgentTaskUseCase.CancelOutcome;
import dev.serverfs.domain.task.TaskId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** {@code cancel_agent_task} (reference §3.9): persisted {@code cancelled} before returning; repeat-safe. */
public final class CancelAgentTaskTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "cancel_agent_task",
            "Cancel an Agent task. The task is cancelled when this returns; a finished task keeps its status.",
            ToolAnnotations.mutating(true, true, true),
            ToolSurface.AGENT);

    private final CancelAgentTaskUseCase useCase;

    public CancelAgentTaskTool(CancelAgentTaskUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments a) {
        TaskId taskId = TaskId.parse(a.requiredString("task_id"));
        CancelOutcome outcome = useCase.cancel(taskId);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("task_id", outcome.taskId().value());
        out.put("status", outcome.status().wire());
        out.put("correlation_id", outcome.correlationId().orElse(null));
        return AgentViews.audited(ToolResult.of(out), Optional.of(taskId))
                .withCounter("status", outcome.status().wire());
    }
}
