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
    private final McpSessions sessions = new McpSessions(clock, Duration.ofMinutes(5));

    @Test
    void ids_are_unique_visible_ascii() {
        String a = sessions.create("2025-11-25").id();
        String b = sessions.create("2025-11-25").id();

        assertNotEquals(a, b);
        assertTrue(a.matches("[A-Za-z0-9_-]{43}"), a);
    }

    @Test
    void a_session_lives_while_used_and_expires_when_idle() {
        String id = sessions.create("2025-06-18").id();

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
        String id = sessions.create("2025-11-25").id();

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
}
