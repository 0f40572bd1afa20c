/**
 * The MCP endpoint: Streamable HTTP on Undertow (sessions, version negotiation, Host/Origin/token checks, body
 * limit), JSON-RPC dispatch, the tool registry with JSON-schema validation, and the SLF4J audit log. Public entry
 * type {@link dev.serverfs.adapters.mcp.McpServer}; tools are {@link dev.serverfs.adapters.mcp.ToolDefinition}s, grouped
 * per surface in {@code ...mcp.tools}; prompts, extra resources and completion are {@link
 * dev.serverfs.adapters.mcp.McpFeatures} (none in the shipped server).
 */
package dev.serverfs.adapters.mcp;
