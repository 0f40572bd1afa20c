package dev.serverfs.adapters.mcp;

import java.util.Set;

/**
 * One MCP tool as the registry sees it; every production tool is a {@link ToolDefinition} (or a {@link
 * TaskToolDefinition} around one; tests may implement this
 * directly). {@link #call} receives only the arguments its published input schema names, already validated against
 * it (unknown top-level arguments are dropped; a failing one is {@code INVALID_ARGUMENTS} before the call), runs on
 * a virtual thread (it may block), maps them to a use-case command and returns a {@link ToolResult}. A {@link
 * dev.serverfs.domain.error.ServerFsException} becomes a tool error {@code CODE: message}; any other exception is a
 * server fault (JSON-RPC -32603, details only in the log). Audit is the registry's job.
 *
 * <p>Adding a tool (docs/DEVELOPMENT.md, "How to add a tool"): (1) its input schema as the resource {@code
 * dev/serverfs/adapters/mcp/schemas/<name>.json} (type object, every property typed, every object
 * closed with {@code additionalProperties: false} and every optional property nullable, so the schema converts to a
 * strict one unchanged; optional {@code <name>.output.json}); (2) in the group class of its surface
 * ({@code FilesystemReadTools}, {@code FilesystemMutationTools}, {@code BinaryTools}, {@code AgentTools}) a {@link
 * ToolSpec} constant (name, description, {@link ToolAnnotations} from the contract, {@link ToolSurface}), a parameter
 * record of the schema's properties, a handler that returns {@code ToolResult.of(record)} plus audit counters, and one
 * {@link ToolDefinition} line in the group's {@code definitions()}. Registration by group and surface is automatic.
 */
public interface McpTool {

    ToolSpec spec();

    ToolResult call(ToolArguments arguments);

    /**
     * One round of a call that may need client input first (2026-07-28 multi round-trip requests): {@link
     * InputRequired} asks the client for it (only requests {@code round} says the client can fulfil); the retry brings
     * the responses and the verified state in {@code round}. Session calls get a round with nothing declared, so a
     * tool that needs input answers them without it. By default the plain {@link #call}.
     */
    default ToolReply reply(ToolArguments arguments, InputRound round) {
        return new ToolReply.Complete(call(arguments));
    }

    /**
     * Client capabilities (top-level names such as {@code sampling}) this tool cannot run without. A stateless
     * (2026-07-28) call from a client that did not declare one of them in its request's {@code _meta} is refused with
     * {@code -32021} before the tool runs; session-era calls are not checked. None by default.
     */
    default Set<String> requiredClientCapabilities() {
        return Set.of();
    }
}
