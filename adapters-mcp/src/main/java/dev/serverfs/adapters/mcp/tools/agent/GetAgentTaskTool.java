package dev.serverfs.adapters.mcp.tools.agent;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.GetAgentTaskUseCase;
import dev.serverfs.application.port.in.GetAgentTaskUseCase.TaskView;
import dev.serverfs.domain.task.TaskId;
import java.util.Objects;
import java.util.Optional;

/** {@code get_agent_task} (reference §3.3): the task record without native ids or fingerprint. */
public final class GetAgentTaskTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "get_agent_task",
            "Read one Agent task: status, timestamps, manifest, result summary (final_response inline or a preview"
                    + " when spooled), error, and the pending approval or question if one waits for an answer.",
            ToolAnnotations.readOnly(),
            ToolSurface.AGENT);

    private final GetAgentTaskUseCase useCase;

    public GetAgentTaskTool(GetAgentTaskUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments a) {
        TaskId id = TaskId.parse(a.requiredString("task_id"));
        TaskView view = useCase.get(id);
        return AgentViews.audited(ToolResult.of(AgentViews.task(view.task(), view.pendingRequest())), Optional.of(id))
                .withWorkdir(view.task().workdirAlias().value())
                .withCounter("status", view.task().status().wire());
    }
}
