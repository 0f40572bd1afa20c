package dev.serverfs.adapters.mcp.tools.agent;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase.ResultRead;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.TaskId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** {@code read_agent_task_result} (reference §3.5): one UTF-8-safe chunk of a spooled result. */
public final class ReadAgentTaskResultTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "read_agent_task_result",
            "Read a spooled Agent task result in UTF-8-safe chunks: offset_bytes (default 0), max_bytes (1..65536,"
                    + " default 65536); continue with next_offset_bytes until eof.",
            ToolAnnotations.readOnly(),
            ToolSurface.AGENT);

    private final ReadAgentTaskResultUseCase useCase;

    public ReadAgentTaskResultTool(ReadAgentTaskResultUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments a) {
        TaskId id = TaskId.parse(a.requiredString("task_id"));
        long offset = a.longValue("offset_bytes").orElse(0L);
        long max = a.longValue("max_bytes").orElse((long) ReadAgentTaskResultUseCase.DEFAULT_MAX_BYTES);
        if (offset < 0) {
            throw new ServerFsException(ErrorCode.INVALID_RESULT_OFFSET, "offset_bytes must not be negative");
        }
        if (max < 1 || max > ReadAgentTaskResultUseCase.DEFAULT_MAX_BYTES) {
            throw new ServerFsException(ErrorCode.INVALID_RESULT_LIMIT, "max_bytes must be 1..65536");
        }
        ResultRead read = useCase.readResult(id, offset, (int) max);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("text", read.chunk().text());
        out.put("offset_bytes", read.chunk().offsetBytes());
        out.put("next_offset_bytes", read.chunk().nextOffsetBytes());
        out.put("eof", read.chunk().eof());
        out.put("correlation_id", read.correlationId().orElse(null));
        return AgentViews.audited(ToolResult.of(out), Optional.of(id))
                .withCounter(
                        "bytes_returned",
                        read.chunk().nextOffsetBytes() - read.chunk().offsetBytes());
    }
}
