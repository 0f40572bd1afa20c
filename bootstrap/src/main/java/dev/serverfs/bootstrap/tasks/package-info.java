/**
 * {@code serverfs tasks}: the read-only operator listing of the Agent task store (CONTRACT.md §4), found through
 * the same configuration as {@code serve}. Never exposed over MCP; never creates, migrates or writes the store.
 */
package dev.serverfs.bootstrap.tasks;
