/**
 * The {@code claude} Agent runtime (reference §7.2, PROVIDERS.md Part 2): one Claude Code CLI child per task turn,
 * speaking stream-json both ways with the control protocol ({@code --permission-prompt-tool stdio}). Entry type:
 * {@link dev.serverfs.adapters.claude.ClaudeAgentRuntime}; the command line, the wire messages and the permission
 * and question mappings are pure and tested on their own.
 */
package dev.serverfs.adapters.claude;
