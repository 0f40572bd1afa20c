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
 * a session is looked up or created: no background thread. A session no request has used since its
 * {@code initialize} (a notification is not a use) expires after {@link #UNUSED_TIMEOUT} already: clients send their
 * first request at once, a flood of {@code initialize} never does. The table holds at most {@code maxSessions};
 * when it is full a newcomer first takes the place of the oldest never-used session, then of the used session idle
 * the longest if that one has been idle for {@link #EVICTABLE_IDLE} (its client gets 404 and initializes again);
 * only a table full of sessions used within that time refuses it (issue 24 item 2: a flood of {@code initialize}
 * can neither lock new clients out nor log out a client that is using its session).
 */
final class McpSessions {

    /** A session no request has used expires this long after its {@code initialize} (or last notification). */
    static final Duration UNUSED_TIMEOUT = Duration.ofMinutes(1);

    /** When the table is full, a used session idle this long may make room for a newcomer. */
    static final Duration EVICTABLE_IDLE = Duration.ofMinutes(5);

    private final Map<String, McpSession> sessions = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final Clock clock;
    private final Duration idleTimeout;
    private final Duration unusedTimeout;
    private final int maxSessions;

    McpSessions(Clock clock, Duration idleTimeout, int maxSessions) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.idleTimeout = Objects.requireNonNull(idleTimeout, "idleTimeout");
        this.unusedTimeout = idleTimeout.compareTo(UNUSED_TIMEOUT) < 0 ? idleTimeout : UNUSED_TIMEOUT;
        if (maxSessions <= 0) {
            throw new IllegalArgumentException("maxSessions must be positive");
        }
        this.maxSessions = maxSessions;
    }

    /** A new session, or empty when the table is full of sessions used within {@link #EVICTABLE_IDLE}. */
    synchronized Optional<McpSession> create(String protocolVersion) {
        Instant now = clock.instant();
        sessions.values().removeIf(s -> expired(s, now));
        if (sessions.size() >= maxSessions && !evictOne(now)) {
            return Optional.empty();
        }
        McpSession session = new McpSession(newId(), protocolVersion, now);
        sessions.put(session.id(), session);
        return Optional.of(session);
    }

    /** Removes the oldest never-used session, else the longest-idle used one if it is evictable; false if none. */
    private boolean evictOne(Instant now) {
        Comparator<McpSession> idlest = Comparator.comparing(McpSession::lastSeen);
        Optional<McpSession> victim =
                sessions.values().stream().filter(s -> !s.used()).min(idlest);
        if (victim.isEmpty()) {
            Instant idleSince = now.minus(EVICTABLE_IDLE);
            victim = sessions.values().stream()
                    .min(idlest)
                    .filter(s -> !s.lastSeen().isAfter(idleSince));
        }
        return victim.map(s -> sessions.remove(s.id(), s)).orElse(false);
    }

    /** The live session with this id, seen now; empty when unknown, ended or expired. */
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
        Duration timeout = session.used() ? idleTimeout : unusedTimeout;
        return !now.isBefore(session.lastSeen().plus(timeout));
    }

    private String newId() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
