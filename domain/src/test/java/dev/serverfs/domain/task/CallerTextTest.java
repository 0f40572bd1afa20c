package dev.serverfs.domain.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The rules of {@link CorrelationId} and {@link IdempotencyKey}. */
class CallerTextTest {

    @ParameterizedTest
    @ValueSource(strings = {"a\u0000b", "tab\there", "del\u007f", "\uD800"})
    void control_characters_and_broken_text_are_invalid_requests(String value) {
        assertEquals(
                ErrorCode.INVALID_REQUEST,
                assertThrows(ServerFsException.class, () -> CorrelationId.parse(Optional.of(value)))
                        .code());
        assertEquals(
                ErrorCode.INVALID_REQUEST,
                assertThrows(ServerFsException.class, () -> IdempotencyKey.parse(Optional.of(value)))
                        .code());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 255, 256})
    void up_to_256_utf8_bytes_are_accepted(int bytes) {
        String value = "x".repeat(bytes);
        assertEquals(Optional.of(new IdempotencyKey(value)), IdempotencyKey.parse(Optional.of(value)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"257", "multibyte"})
    void more_than_256_bytes_are_refused(String kind) {
        String value = kind.equals("257") ? "x".repeat(257) : "é".repeat(129);
        assertEquals(
                ErrorCode.INVALID_REQUEST,
                assertThrows(ServerFsException.class, () -> CorrelationId.parse(Optional.of(value)))
                        .code());
    }

    @ParameterizedTest
    @ValueSource(strings = {""})
    void an_empty_key_is_refused_but_an_empty_correlation_id_is_kept(String value) {
        assertEquals(
                ErrorCode.INVALID_REQUEST,
                assertThrows(ServerFsException.class, () -> IdempotencyKey.parse(Optional.of(value)))
                        .code());
        assertEquals(Optional.of(new CorrelationId("")), CorrelationId.parse(Optional.of(value)));
        assertThrows(IllegalArgumentException.class, () -> new IdempotencyKey(value));
    }
}
