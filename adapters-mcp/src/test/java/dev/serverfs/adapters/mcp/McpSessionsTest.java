package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class McpSessionsTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final McpSessions sessions = new McpSessions(clock, Duration.ofMinutes(5), 3);

    @Test
    void ids_are_unique_visible_ascii() {
        String a = sessions.create("2025-11-25").orElseThrow().id();
        String b = sessions.create("2025-11-25").orElseThrow().id();

        assertNotEquals(a, b);
        assertTrue(a.matches("[A-Za-z0-9_-]{43}"), a);
    }

    @Test
    void a_session_lives_while_used_and_expires_when_idle() {
        String id = sessions.create("2025-06-18").orElseThrow().id();
        sessions.touch(id).orElseThrow().markUsed();

        clock.advance(Duration.ofMinutes(4));
        assertEquals("2025-06-18", sessions.touch(id).orElseThrow().protocolVersion());
        clock.advance(Duration.ofMinutes(4));
        assertTrue(sessions.touch(id).isPresent());
        clock.advance(Duration.ofMinutes(5));

        assertTrue(sessions.touch(id).isEmpty());
        assertEquals(0, sessions.size());
    }

    @Test
    void ending_removes_a_session_once() {
        String id = sessions.create("2025-11-25").orElseThrow().id();

        assertTrue(sessions.end(id));
        assertFalse(sessions.end(id));
        assertTrue(sessions.touch(id).isEmpty());
    }

    @Test
    void creating_sweeps_expired_sessions() {
        sessions.create("2025-11-25");
        sessions.create("2025-11-25");
        clock.advance(Duration.ofMinutes(6));

        sessions.create("2025-11-25");

        assertEquals(1, sessions.size());
    }

    @Test
    void a_never_used_session_expires_after_a_minute_notifications_or_not() {
        String quiet = sessions.create("2025-11-25").orElseThrow().id();
        String notified = sessions.create("2025-11-25").orElseThrow().id();
        clock.advance(McpSessions.UNUSED_TIMEOUT.minusSeconds(1));
        // notifications/initialized: seen, but not used.
        assertTrue(sessions.touch(notified).isPresent());
        clock.advance(Duration.ofSeconds(1));

        assertTrue(sessions.touch(quiet).isEmpty());
        clock.advance(McpSessions.UNUSED_TIMEOUT);
        assertTrue(sessions.touch(notified).isEmpty());
    }

    @Test
    void a_full_table_refuses_a_new_session_while_every_session_was_used_recently() {
        String a = used();
        String b = used();
        String c = used();
        clock.advance(McpSessions.EVICTABLE_IDLE.minusSeconds(1));

        assertTrue(sessions.create("2025-11-25").isEmpty());
        assertTrue(sessions.touch(a).isPresent());
        assertTrue(sessions.touch(b).isPresent());
        assertTrue(sessions.touch(c).isPresent());
    }

    @Test
    void when_full_the_oldest_never_used_session_makes_room_at_once_and_used_ones_stay() {
        String used = used();
        String oldest = sessions.create("2025-11-25").orElseThrow().id();
        clock.advance(Duration.ofSeconds(1));
        String younger = sessions.create("2025-11-25").orElseThrow().id();

        String newcomer = sessions.create("2025-11-25").orElseThrow().id();

        assertTrue(sessions.touch(oldest).isEmpty(), "the oldest never-used session made room");
        assertTrue(sessions.touch(younger).isPresent());
        assertTrue(sessions.touch(used).isPresent());
        assertTrue(sessions.touch(newcomer).isPresent());
    }

    @Test
    void when_full_of_used_sessions_the_one_idle_longest_makes_room_once_it_is_evictable() {
        String idle = used();
        clock.advance(Duration.ofMinutes(1));
        String b = used();
        String c = used();
        clock.advance(McpSessions.EVICTABLE_IDLE.minusMinutes(1));
        sessions.touch(b);
        sessions.touch(c);

        String newcomer = sessions.create("2025-11-25").orElseThrow().id();

        assertTrue(sessions.touch(idle).isEmpty(), "idle for EVICTABLE_IDLE: its client initializes again");
        assertTrue(sessions.touch(b).isPresent());
        assertTrue(sessions.touch(c).isPresent());
        assertTrue(sessions.touch(newcomer).isPresent());
    }

    /** A session a request has used (as the handler marks it). */
    private String used() {
        McpSession session = sessions.create("2025-11-25").orElseThrow();
        sessions.touch(session.id()).orElseThrow().markUsed();
        return session.id();
    }
}
