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
    void a_full_table_refuses_a_new_session_and_keeps_every_live_one() {
        String a = sessions.create("2025-11-25").orElseThrow().id();
        String b = sessions.create("2025-11-25").orElseThrow().id();
        String c = sessions.create("2025-11-25").orElseThrow().id();
        clock.advance(Duration.ofMinutes(2));
        sessions.touch(a);
        sessions.touch(b);
        sessions.touch(c);

        assertTrue(sessions.create("2025-11-25").isEmpty());
        assertTrue(sessions.touch(a).isPresent());
        assertTrue(sessions.touch(b).isPresent());
        assertTrue(sessions.touch(c).isPresent());
    }

    @Test
    void when_full_an_old_never_used_session_makes_room_but_a_young_one_does_not() {
        String used = sessions.create("2025-11-25").orElseThrow().id();
        String unused = sessions.create("2025-11-25").orElseThrow().id();
        sessions.touch(used);
        clock.advance(McpSessions.UNUSED_GRACE.plusSeconds(1));
        sessions.touch(used);
        String young = sessions.create("2025-11-25").orElseThrow().id();

        String newcomer = sessions.create("2025-11-25").orElseThrow().id();

        assertTrue(sessions.touch(unused).isEmpty(), "the old unused session made room");
        assertTrue(sessions.touch(used).isPresent());
        assertTrue(sessions.touch(newcomer).isPresent());
        assertTrue(sessions.create("2025-11-25").isEmpty(), "young and used sessions are never dropped");
        assertTrue(sessions.touch(young).isPresent());
    }
}
