/**
 * The MCP tools of the filesystem and binary surfaces, one class per group ({@link
 * dev.serverfs.adapters.mcp.tools.FilesystemReadTools}, {@link dev.serverfs.adapters.mcp.tools.FilesystemMutationTools},
 * {@link dev.serverfs.adapters.mcp.tools.BinaryTools}): each tool a {@link dev.serverfs.adapters.mcp.ToolDefinition}
 * (spec, parameter record, handler) that maps the bound arguments to a use-case command and publishes the use case's
 * result record, or a view of it where the wire differs. Each tool's input schema is the resource {@code
 * schemas/<tool>.json}.
 */
package dev.serverfs.adapters.mcp.tools;
