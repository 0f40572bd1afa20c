package dev.serverfs.adapters.mcp;

/**
 * One MCP tool. {@link #call} receives arguments that already passed the published input schema, runs on a
 * virtual thread (it may block), maps them to a use-case command and returns a {@link ToolResult}. A
 * {@link dev.serverfs.domain.error.ServerFsException} becomes a tool error {@code CODE: message}; any other
 * exception is a server fault (JSON-RPC -32603, details only in the log). Audit is the registry's job.
 */
public interface McpTool {

    ToolSpec spec();

    ToolResult call(ToolArguments arguments);
}
