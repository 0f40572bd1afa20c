package dev.serverfs.adapters.mcp.tools.agent;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.SendAgentMessageUseCase;
import dev.serverfs.application.port.in.SendAgentMessageUseCase.MessageAck;
import dev.serverfs.domain.task.TaskId;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** {@code send_agent_message} (reference §3.8): steers a running turn; audit records {@code message_bytes} only. */
public final class SendAgentMessageTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "send_agent_message",
            "Steer a running Agent task with a short user message (at most 65536 bytes). A finished task takes no"
                    + " messages: submit a continuation with continue_from_task_id.",
            ToolAnnotations.mutating(true, false, true),
            ToolSurface.AGENT);

    private final SendAgentMessageUseCase useCase;

    public SendAgentMessageTool(SendAgentMessageUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments a) {
        TaskId taskId = TaskId.parse(a.requiredString("task_id"));
        String message = a.requiredString("message");
        MessageAck ack = useCase.send(taskId, message);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("task_id", ack.taskId().value());
        out.put("accepted", true);
        out.put("correlation_id", ack.correlationId().orElse(null));
        return AgentViews.audited(ToolResult.of(out), Optional.of(taskId))
                .withCounter("message_bytes", message.getBytes(StandardCharsets.UTF_8).length);
    }
}
