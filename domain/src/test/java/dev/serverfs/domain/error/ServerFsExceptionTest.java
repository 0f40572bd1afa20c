package dev.serverfs.domain.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.workdir.PathFailure;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServerFsExceptionTest {

    @Test
    void a_failure_about_a_path_keeps_its_parts_and_shows_the_reference_shape() {
        ServerFsException e = PathFailure.of(ErrorCode.PATH_NOT_FOUND, "docs", "a\nb.txt", "path not found");

        assertEquals(ErrorCode.PATH_NOT_FOUND, e.code());
        assertEquals(Optional.of("docs:a?b.txt"), e.label());
        assertEquals("path not found", e.detail());
        assertEquals("docs:a?b.txt — path not found", e.getMessage());
        assertEquals("PATH_NOT_FOUND: docs:a?b.txt — path not found", e.agentText());
    }

    @Test
    void a_failure_about_nothing_in_particular_has_no_label() {
        ServerFsException e = new ServerFsException(ErrorCode.INVALID_REQUEST, "idempotency_key must not be empty");

        assertTrue(e.label().isEmpty());
        assertEquals(e.getMessage(), e.detail());
        assertEquals("INVALID_REQUEST: idempotency_key must not be empty", e.agentText());
    }
}
