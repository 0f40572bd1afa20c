/**
 * Inbound ports: one use case per MCP tool or Bridge RPC, with its command, query and result records. Adapters
 * call these and nothing else in the core.
 */
package dev.serverfs.application.port.in;
