package dev.serverfs.domain.task;

import java.util.Objects;
import java.util.Optional;

/**
 * The caller's {@code correlation_id} (reference §3.15): an opaque string of at most 256 UTF-8 bytes without control
 * characters, echoed on every answer about its task, never interpreted. May be empty.
 */
public record CorrelationId(String value) {

    public CorrelationId {
        Objects.requireNonNull(value, "value");
        String violation = CallerText.violation(value, "correlation_id");
        if (violation != null) {
            throw new IllegalArgumentException(violation);
        }
    }

    /** Parses caller input: a value that breaks a rule is {@code INVALID_REQUEST}. */
    public static Optional<CorrelationId> parse(Optional<String> value) {
        return value.map(v -> CallerText.parse(() -> new CorrelationId(v)));
    }

    /** The wire form of an optional id. */
    public static Optional<String> wire(Optional<CorrelationId> id) {
        return id.map(CorrelationId::value);
    }

    @Override
    public String toString() {
        return value;
    }
}
