package dev.serverfs.adapters.mcp.tools.agent;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.RespondAgentApprovalUseCase;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;
import java.util.Objects;
import java.util.Optional;

/** {@code respond_agent_approval} (reference §3.6); {@code cancel_task} cancels the task before returning. */
public final class RespondAgentApprovalTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "respond_agent_approval",
            "Answer an Agent task's pending approval request: approve_once, approve_session, deny, or cancel_task"
                    + " (cancels the task). granted_permission_ids must be a subset of the requested permissions.",
            ToolAnnotations.mutating(true, true, true),
            ToolSurface.AGENT);

    private final RespondAgentApprovalUseCase useCase;

    public RespondAgentApprovalTool(RespondAgentApprovalUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments a) {
        TaskId taskId = TaskId.parse(a.requiredString("task_id"));
        RequestId requestId = RequestId.parse(a.requiredString("request_id"));
        String wire = a.requiredString("decision");
        ApprovalDecision decision = ApprovalDecision.fromWire(wire)
                .orElseThrow(() -> new ServerFsException(ErrorCode.INVALID_APPROVAL_DECISION, "unknown decision"));
        Optional<java.util.List<String>> granted =
                a.has("granted_permission_ids") ? Optional.of(a.strings("granted_permission_ids")) : Optional.empty();
        return InteractionAcks.of(useCase.respond(taskId, requestId, new ApprovalResolution(decision, granted)))
                .withCounter("decision", decision.wire());
    }
}
