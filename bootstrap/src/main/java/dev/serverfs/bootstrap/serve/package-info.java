/**
 * The {@code serve} role: loads the configuration, wires use cases to MCP tools, starts the MCP endpoint and
 * stops it cleanly on SIGTERM/SIGINT. Add a new tool in {@link dev.serverfs.bootstrap.serve.ServeWiring#tools}.
 */
package dev.serverfs.bootstrap.serve;
