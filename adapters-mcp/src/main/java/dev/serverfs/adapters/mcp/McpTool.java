package dev.serverfs.adapters.mcp;

/**
 * One MCP tool. {@link #call} receives only the arguments its published input schema names, already validated
 * against it (unknown top-level arguments are dropped; a failing one is {@code INVALID_ARGUMENTS} before the call),
 * runs on a virtual thread (it may block), maps them to a use-case command and returns a {@link ToolResult}. A
 * {@link dev.serverfs.domain.error.ServerFsException} becomes a tool error {@code CODE: message}; any other
 * exception is a server fault (JSON-RPC -32603, details only in the log). Audit is the registry's job.
 *
 * <p>Adding a tool: (1) its input schema as the resource {@code dev/serverfs/adapters/mcp/schemas/<name>.json}
 * (type object, every property typed, no {@code additionalProperties} at the top level; optional {@code
 * <name>.output.json}); (2) a {@code <ToolName>Tool} in {@code ...mcp.tools} with a
 * {@link ToolSpec} (name, description, {@link ToolAnnotations} from the contract, {@link ToolSurface}) that maps
 * {@link ToolArguments} to the use case and returns {@code ToolResult.of(payloadRecord)} plus audit counters;
 * (3) one line in {@code ServeWiring.tools}. Registration by surface is automatic.
 */
public interface McpTool {

    ToolSpec spec();

    ToolResult call(ToolArguments arguments);
}
