package dev.serverfs.domain.task;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * The rules of the caller-supplied opaque strings {@link CorrelationId} and {@link IdempotencyKey} (reference §3.15,
 * v0.7.3 §3.1): at most 256 UTF-8 bytes, no control characters (below 0x20 or 0x7F), well-formed UTF-16. Neither is
 * ever parsed or sent to a provider.
 */
final class CallerText {
    static final int MAX_BYTES = 256;

    private CallerText() {}

    /** The reason {@code value} breaks a rule, or null. */
    static String violation(String value, String field) {
        if (value.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            return field + " must be at most 256 UTF-8 bytes";
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                return field + " must not contain control characters";
            }
        }
        return value.isEmpty() || isWellFormed(value) ? null : field + " must be valid UTF-8";
    }

    /** Builds the value from caller input: a broken rule is {@code INVALID_REQUEST} with the rule's reason. */
    static <T> T parse(Supplier<T> value) {
        try {
            return value.get();
        } catch (IllegalArgumentException e) {
            throw new ServerFsException(ErrorCode.INVALID_REQUEST, e.getMessage());
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
