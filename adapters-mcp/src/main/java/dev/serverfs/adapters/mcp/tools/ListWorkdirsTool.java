package dev.serverfs.adapters.mcp.tools;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.ListWorkdirsUseCase;
import java.util.List;
import java.util.Objects;

/** {@code list_workdirs} (reference §2.1): no input; {@code {workdirs: [WorkdirInfo]}} in slot order. */
public final class ListWorkdirsTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "list_workdirs",
            "List the workdirs this server exposes, in configured order: alias, description, access (read-only or"
                    + " read-write), whether binary transfer is enabled, and the Agent mode and runtimes. Call this"
                    + " first: every other tool takes one of these aliases as `workdir` and a path relative to it.",
            ToolAnnotations.readOnly(),
            ToolSurface.FILESYSTEM);

    private final ListWorkdirsUseCase useCase;

    public ListWorkdirsTool(ListWorkdirsUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        List<WorkdirPayload> workdirs =
                useCase.listWorkdirs().stream().map(ListWorkdirsTool::payload).toList();
        return ToolResult.of(new ListWorkdirsPayload(workdirs)).withCounter("returned", workdirs.size());
    }

    private static WorkdirPayload payload(ListWorkdirsUseCase.WorkdirInfo info) {
        return new WorkdirPayload(
                info.alias(),
                info.description(),
                info.access(),
                info.binaryTransfer(),
                info.agentMode(),
                info.agentRuntimes());
    }

    /** The tool's structured content. */
    record ListWorkdirsPayload(List<WorkdirPayload> workdirs) {}

    /** One WorkdirInfo; {@code description} is {@code null} when none is configured. */
    record WorkdirPayload(
            String alias,
            String description,
            String access,
            boolean binaryTransfer,
            String agentMode,
            List<String> agentRuntimes) {}
}
