/**
 * The {@code serve} role: loads the configuration, wires use cases to MCP tools, starts the MCP endpoint and
 * stops it cleanly on SIGTERM/SIGINT. {@link dev.serverfs.bootstrap.serve.ServeWiring#tools} registers the tool groups;
 * a new tool goes in its group's class in {@code adapters-mcp} (docs/DEVELOPMENT.md, "How to add a tool").
 */
package dev.serverfs.bootstrap.serve;
