package dev.serverfs.adapters.mcp.tools.agent;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase.EventPage;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.TaskId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** {@code read_agent_task_events} (reference §3.4): normalised, redacted events after a cursor. */
public final class ReadAgentTaskEventsTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "read_agent_task_events",
            "Read an Agent task's normalised events after after_event_id (default 0), at most limit (1..500,"
                    + " default 100); continue with next_after_event_id.",
            ToolAnnotations.readOnly(),
            ToolSurface.AGENT);

    private final ReadAgentTaskEventsUseCase useCase;

    public ReadAgentTaskEventsTool(ReadAgentTaskEventsUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments a) {
        TaskId id = TaskId.parse(a.requiredString("task_id"));
        long after = a.longValue("after_event_id").orElse(0L);
        long limit = a.longValue("limit").orElse((long) ReadAgentTaskEventsUseCase.DEFAULT_LIMIT);
        if (after < 0 || limit < 1 || limit > ReadAgentTaskEventsUseCase.MAX_LIMIT) {
            throw new ServerFsException(ErrorCode.INVALID_LIMIT, "after_event_id or limit is out of range");
        }
        EventPage page = useCase.readEvents(id, after, (int) limit);
        List<Map<String, Object>> events = page.events().stream()
                .map(e -> AgentViews.event(e, page.correlationId()))
                .toList();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("correlation_id", page.correlationId().orElse(null));
        out.put("events", events);
        out.put("next_after_event_id", page.nextAfterEventId());
        return AgentViews.audited(ToolResult.of(out), Optional.of(id)).withCounter("returned", events.size());
    }
}
