package dev.serverfs.adapters.mcp;

import java.time.Instant;
import java.util.Objects;

/**
 * One MCP session: its id, the negotiated protocol version, when it was last seen, and whether a request ever used it
 * (a notification such as {@code notifications/initialized} does not).
 */
final class McpSession {

    private final String id;
    private final String protocolVersion;
    private volatile Instant lastSeen;
    private volatile boolean initialized;
    private volatile boolean used;
    private final InFlightCalls calls = new InFlightCalls();

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

    /** Marks the session as used by a request; a plain read once it is, so the hot path writes nothing shared. */
    void markUsed() {
        if (!used) {
            used = true;
        }
    }

    /** True once any request after {@code initialize} named this session. */
    boolean used() {
        return used;
    }

    /** The session's requests that a {@code notifications/cancelled} may stop. */
    InFlightCalls calls() {
        return calls;
    }

    boolean initialized() {
        return initialized;
    }

    void markInitialized() {
        initialized = true;
    }
}
