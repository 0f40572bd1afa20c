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
 * a session is looked up or created: no background thread. The table holds at most {@code maxSessions}: when it is
 * full a new session is refused rather than a live one dropped, so a flood of {@code initialize} (which needs no
 * session) can never log out a client that is using its session. The only sessions given up under that pressure
 * are ones never used since their {@code initialize} and older than {@link #UNUSED_GRACE}: a flood's own.
 */
final class McpSessions {

    /** How long an opened but never used session is kept when the table is full. */
    static final Duration UNUSED_GRACE = Duration.ofMinutes(1);

    private final Map<String, McpSession> sessions = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final Clock clock;
    private final Duration idleTimeout;
    private final int maxSessions;

    McpSessions(Clock clock, Duration idleTimeout, int maxSessions) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.idleTimeout = Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (maxSessions <= 0) {
            throw new IllegalArgumentException("maxSessions must be positive");
        }
        this.maxSessions = maxSessions;
    }

    /** A new session, or empty when the table is full of sessions in use. */
    synchronized Optional<McpSession> create(String protocolVersion) {
        Instant now = clock.instant();
        sessions.values().removeIf(s -> expired(s, now));
        if (sessions.size() >= maxSessions) {
            Instant openedBefore = now.minus(UNUSED_GRACE);
            sessions.values().stream()
                    .filter(s -> !s.used() && s.lastSeen().isBefore(openedBefore))
                    .min(Comparator.comparing(McpSession::lastSeen))
                    .ifPresent(unused -> sessions.remove(unused.id(), unused));
        }
        if (sessions.size() >= maxSessions) {
            return Optional.empty();
        }
        McpSession session = new McpSession(newId(), protocolVersion, now);
        sessions.put(session.id(), session);
        return Optional.of(session);
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
