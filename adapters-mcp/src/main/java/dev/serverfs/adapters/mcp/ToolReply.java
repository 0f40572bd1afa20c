package dev.serverfs.adapters.mcp;

import java.util.Objects;

/**
 * What a tool answers one round of a call with (2026-07-28 {@code resultType}): a complete {@link ToolResult}, or
 * {@link InputRequired} when it needs client input first. Only stateless calls can carry the second; see
 * {@link McpTool#reply}.
 */
public sealed interface ToolReply permits ToolReply.Complete, InputRequired {

    /** The call finished with {@code result}. */
    record Complete(ToolResult result) implements ToolReply {
        public Complete {
            Objects.requireNonNull(result, "result");
        }
    }
}
