package dev.serverfs.domain.task;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** The stored and wire timestamp form (reference §5): ISO-8601 UTC with microseconds and a {@code Z} suffix. */
public final class Timestamps {
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private Timestamps() {}

    /** {@code 2026-01-02T03:04:05.123456Z}; sub-microsecond digits are truncated. */
    public static String format(Instant instant) {
        return FORMAT.format(instant.truncatedTo(ChronoUnit.MICROS));
    }

    public static Instant parse(String text) {
        return Instant.parse(text);
    }

    /** The instant as a store can keep it (microsecond precision). */
    public static Instant truncate(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS);
    }
}
