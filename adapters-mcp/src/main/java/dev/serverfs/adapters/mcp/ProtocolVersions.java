package dev.serverfs.adapters.mcp;

import java.util.List;

/**
 * The MCP protocol versions we speak (CONTRACT.md §4), newest first: the session era (2025-11-25 and older, opened
 * by {@code initialize}) and the stateless era (2026-07-28, every request carries its version in {@code _meta}).
 */
final class ProtocolVersions {

    static final String LATEST = "2025-11-25";

    /** The stateless revision (2026-07-28 basic/versioning): no {@code initialize}, no session. */
    static final String STATELESS = "2026-07-28";

    /** Streamable HTTP: a request without {@code MCP-Protocol-Version} is assumed to be 2025-03-26. */
    static final String ASSUMED_WHEN_MISSING = "2025-03-26";

    /** The versions a session can negotiate. */
    static final List<String> SUPPORTED = List.of(LATEST, "2025-06-18", "2025-03-26");

    /** Every version this endpoint serves, both eras, as {@code server/discover} lists them. */
    static final List<String> ALL = List.of(STATELESS, LATEST, "2025-06-18", "2025-03-26");

    private ProtocolVersions() {}

    static boolean supported(String version) {
        return SUPPORTED.contains(version);
    }

    /** Lifecycle: echo the client's version when we support it, else answer with our latest. */
    static String negotiate(String requested) {
        return supported(requested) ? requested : LATEST;
    }
}
