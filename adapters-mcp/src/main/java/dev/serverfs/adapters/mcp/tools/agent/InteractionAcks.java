package dev.serverfs.adapters.mcp.tools.agent;

import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.application.port.in.InteractionAck;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** {@code {task_id, request_id, resolved: true, correlation_id}} (reference §3.6, §3.7). */
final class InteractionAcks {
    private InteractionAcks() {}

    static ToolResult of(InteractionAck ack) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("task_id", ack.taskId().value());
        out.put("request_id", ack.requestId().value());
        out.put("resolved", true);
        out.put("correlation_id", ack.correlationId().orElse(null));
        return AgentViews.audited(ToolResult.of(out), Optional.of(ack.taskId()))
                .withCounter("request_id", ack.requestId().value());
    }
}
