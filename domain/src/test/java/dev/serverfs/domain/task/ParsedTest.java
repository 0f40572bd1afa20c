package dev.serverfs.domain.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ParsedTest {

    @Test
    void a_refusal_is_kept_with_the_callers_text_and_thrown_when_the_value_is_asked_for() {
        Parsed<Optional<CorrelationId>> bad = Parsed.optional(Optional.of("a\u0001"), CorrelationId::parse);
        assertEquals(Optional.empty(), bad.valid());
        assertEquals("a\u0001", bad.fold(v -> "valid", raw -> raw));
        ServerFsException first = assertThrows(ServerFsException.class, bad::get);
        assertEquals(ErrorCode.INVALID_REQUEST, first.code());
        assertEquals("correlation_id must not contain control characters", first.getMessage());
        assertSame(first, assertThrows(ServerFsException.class, bad::get), "the same refusal every time");
    }

    @Test
    void an_absent_optional_field_is_valid_and_empty() {
        Parsed<Optional<IdempotencyKey>> absent = Parsed.optional(Optional.empty(), IdempotencyKey::parse);
        assertEquals(Optional.of(Optional.empty()), absent.valid());
        assertEquals(Optional.empty(), absent.get());
        Parsed<Optional<IdempotencyKey>> key = Parsed.optional(Optional.of("k"), IdempotencyKey::parse);
        assertEquals(Optional.of(new IdempotencyKey("k")), key.get());
        assertEquals("k", key.fold(k -> k.orElseThrow().value(), raw -> "refused"));
    }

    @Test
    void runtime_and_profile_refusals_carry_the_contract_codes() {
        // A well-formed name no runtime has ("qoder") parses; the workdir's allow-list refuses it later, with the
        // same code. Only a name no runtime could have is refused here.
        assertEquals(
                ErrorCode.AGENT_RUNTIME_NOT_ALLOWED,
                assertThrows(
                                ServerFsException.class,
                                () -> AgentAccessPolicy.runtime("Qoder CLI", "docs")
                                        .get())
                        .code());
        assertEquals(
                "Qoder CLI is not allowed for docs",
                AgentAccessPolicy.runtime("Qoder CLI", "docs").fold(v -> "", raw -> raw + " is not allowed for docs"));
        assertEquals(
                ErrorCode.AGENT_PROFILE_NOT_ALLOWED,
                assertThrows(
                                ServerFsException.class,
                                () -> AgentAccessPolicy.profile("bogus").get())
                        .code());
        assertEquals(
                Optional.of(TaskProfile.REVIEW),
                AgentAccessPolicy.profile("review").valid());
        assertEquals("codex", AgentAccessPolicy.runtime("codex", "docs").get().wire());
    }
}
