package dev.serverfs.adapters.mcp;

import java.util.Objects;
import java.util.Optional;

/**
 * MCP tool annotations exactly as the contract publishes them (reference §2.0, §3): read tools carry only
 * {@code readOnlyHint=true, openWorldHint=false}; mutating tools carry all four hints.
 */
public record ToolAnnotations(
        boolean readOnlyHint,
        Optional<Boolean> destructiveHint,
        Optional<Boolean> idempotentHint,
        boolean openWorldHint) {

    public ToolAnnotations {
        Objects.requireNonNull(destructiveHint, "destructiveHint");
        Objects.requireNonNull(idempotentHint, "idempotentHint");
    }

    /** A read tool: {@code readOnlyHint=true, openWorldHint=false}. */
    public static ToolAnnotations readOnly() {
        return new ToolAnnotations(true, Optional.empty(), Optional.empty(), false);
    }

    /** A tool that changes state: {@code readOnlyHint=false} with the given hints. */
    public static ToolAnnotations mutating(boolean destructive, boolean idempotent, boolean openWorld) {
        return new ToolAnnotations(false, Optional.of(destructive), Optional.of(idempotent), openWorld);
    }
}
