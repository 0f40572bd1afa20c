/**
 * MCP tools, one {@code <ToolName>Tool} per contract tool: map validated arguments to a use-case command and the
 * use case's result to a payload. Each tool's input schema is the resource {@code schemas/<tool>.json}.
 */
package dev.serverfs.adapters.mcp.tools;
