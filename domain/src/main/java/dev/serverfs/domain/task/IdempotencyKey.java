package dev.serverfs.domain.task;

import java.util.Objects;
import java.util.Optional;

/**
 * The caller's {@code idempotency_key} (v0.7.3 §3.1): a non-empty opaque string of at most 256 UTF-8 bytes without
 * control characters. A retained task holds its key: a retry with the same key and the same inputs gets that task.
 */
public record IdempotencyKey(String value) {

    public IdempotencyKey {
        Objects.requireNonNull(value, "value");
        String violation = violation(value);
        if (violation != null) {
            throw new IllegalArgumentException(violation);
        }
    }

    /** Parses caller input: an empty key or one that breaks a rule is {@code INVALID_REQUEST}. */
    public static Optional<IdempotencyKey> parse(Optional<String> value) {
        return value.map(v -> CallerText.parse(() -> new IdempotencyKey(v)));
    }

    /** The wire form of an optional key. */
    public static Optional<String> wire(Optional<IdempotencyKey> key) {
        return key.map(IdempotencyKey::value);
    }

    private static String violation(String value) {
        return value.isEmpty() ? "idempotency_key must not be empty" : CallerText.violation(value, "idempotency_key");
    }

    @Override
    public String toString() {
        return value;
    }
}
