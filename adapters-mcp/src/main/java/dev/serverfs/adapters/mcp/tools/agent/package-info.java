/**
 * The nine Agent MCP tools (reference §3), defined in {@link dev.serverfs.adapters.mcp.tools.agent.AgentTools}: thin
 * mappings of bound arguments to the Agent use cases (embedded lifecycle or Bridge client), wire-shaped outputs, and
 * audit metadata that never includes prompt, message or answer text. Registered only on the {@link
 * dev.serverfs.adapters.mcp.ToolSurface#AGENT} surface.
 */
package dev.serverfs.adapters.mcp.tools.agent;
