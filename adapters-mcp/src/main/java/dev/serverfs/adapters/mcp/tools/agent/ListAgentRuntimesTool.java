package dev.serverfs.adapters.mcp.tools.agent;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.ListAgentRuntimesUseCase;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** {@code list_agent_runtimes} (reference §3.1): runtimes allowlisted on at least one workdir, probed. */
public final class ListAgentRuntimesTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "list_agent_runtimes",
            "List the coding-agent runtimes that some workdir allows, with availability and capabilities"
                    + " (persistent session, live steer, interactive approval and question, in-flight recovery).",
            ToolAnnotations.readOnly(),
            ToolSurface.AGENT);

    private final ListAgentRuntimesUseCase useCase;

    public ListAgentRuntimesTool(ListAgentRuntimesUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        List<Map<String, Object>> runtimes =
                useCase.listRuntimes().stream().map(AgentViews::runtime).toList();
        return ToolResult.of(Map.of("runtimes", runtimes)).withCounter("returned", runtimes.size());
    }
}
