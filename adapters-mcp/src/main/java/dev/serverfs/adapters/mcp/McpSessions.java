package dev.serverfs.adapters.mcp;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Live MCP sessions. Ids are 256 random bits in base64url (visible ASCII, Streamable HTTP §Session Management).
 * A session ends by DELETE or after {@code idleTimeout} without a request, judged on the injected clock whenever
 * a session is looked up or created: no background thread. The table is bounded; at the bound the least recently
 * used session is dropped.
 */
final class McpSessions {

    static final int MAX_SESSIONS = 10_000;

    private final Map<String, McpSession> sessions = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final Clock clock;
    private final Duration idleTimeout;

    McpSessions(Clock clock, Duration idleTimeout) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.idleTimeout = Objects.requireNonNull(idleTimeout, "idleTimeout");
    }

    McpSession create(String protocolVersion) {
        Instant now = clock.instant();
        sessions.values().removeIf(s -> expired(s, now));
        while (sessions.size() >= MAX_SESSIONS) {
            sessions.values().stream()
                    .min(Comparator.comparing(McpSession::lastSeen))
                    .ifPresent(oldest -> sessions.remove(oldest.id()));
        }
        McpSession session = new McpSession(newId(), protocolVersion, now);
        sessions.put(session.id(), session);
        return session;
    }

    /** The live session with this id, marked as used now; empty when unknown, ended or expired. */
    Optional<McpSession> touch(String id) {
        McpSession session = sessions.get(id);
        if (session == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (expired(session, now)) {
            sessions.remove(id, session);
            return Optional.empty();
        }
        session.seen(now);
        return Optional.of(session);
    }

    /** Ends a session; false when it was not live. */
    boolean end(String id) {
        return touch(id).map(s -> sessions.remove(id, s)).orElse(false);
    }

    int size() {
        return sessions.size();
    }

    private boolean expired(McpSession session, Instant now) {
        return !now.isBefore(session.lastSeen().plus(idleTimeout));
    }

    private String newId() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
