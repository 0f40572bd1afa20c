package dev.serverfs.domain.task;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Validation of the caller-supplied opaque strings {@code correlation_id} and {@code idempotency_key}
 * (reference §3.15, v0.7.3 §3.1): at most 256 UTF-8 bytes, no control characters (below 0x20 or 0x7F); the key
 * must not be empty. Violations → {@code INVALID_REQUEST}. Neither is ever parsed or sent to a provider.
 */
public final class CallerMetadata {
    public static final int MAX_BYTES = 256;

    private CallerMetadata() {}

    public static Optional<String> correlationId(Optional<String> value) {
        value.ifPresent(v -> check(v, "correlation_id"));
        return value;
    }

    public static Optional<String> idempotencyKey(Optional<String> value) {
        value.ifPresent(v -> {
            if (v.isEmpty()) {
                throw new ServerFsException(ErrorCode.INVALID_REQUEST, "idempotency_key must not be empty");
            }
            check(v, "idempotency_key");
        });
        return value;
    }

    private static void check(String value, String field) {
        if (value.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw new ServerFsException(ErrorCode.INVALID_REQUEST, field + " must be at most 256 UTF-8 bytes");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                throw new ServerFsException(ErrorCode.INVALID_REQUEST, field + " must not contain control characters");
            }
        }
        if (!isWellFormed(value)) {
            throw new ServerFsException(ErrorCode.INVALID_REQUEST, field + " must be valid UTF-8");
        }
    }

    private static boolean isWellFormed(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= value.length() || !Character.isLowSurrogate(value.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
