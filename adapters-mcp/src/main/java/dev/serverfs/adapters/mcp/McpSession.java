package dev.serverfs.adapters.mcp;

import java.time.Instant;
import java.util.Objects;

/** One MCP session: its id, the negotiated protocol version, and when it was last used. */
final class McpSession {

    private final String id;
    private final String protocolVersion;
    private volatile Instant lastSeen;
    private volatile boolean initialized;

    McpSession(String id, String protocolVersion, Instant created) {
        this.id = Objects.requireNonNull(id, "id");
        this.protocolVersion = Objects.requireNonNull(protocolVersion, "protocolVersion");
        this.lastSeen = Objects.requireNonNull(created, "created");
    }

    String id() {
        return id;
    }

    String protocolVersion() {
        return protocolVersion;
    }

    Instant lastSeen() {
        return lastSeen;
    }

    void seen(Instant now) {
        lastSeen = now;
    }

    boolean initialized() {
        return initialized;
    }

    void markInitialized() {
        initialized = true;
    }
}
