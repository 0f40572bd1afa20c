/**
 * Composition of the Agent side of {@code serve}: the embedded Agent service (SQLite store, flock leases, result
 * spool, runtimes, timers, start-up reconciliation) or, without a Bridge client yet, tools that answer
 * {@code AGENT_BRIDGE_UNAVAILABLE}; and the nine Agent MCP tools on top.
 */
package dev.serverfs.bootstrap.agent;
