package dev.serverfs.adapters.sqlite;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * Timestamps as stored (reference §5): ISO-8601 UTC with exactly six fractional digits and a {@code Z}, so
 * text order is time order. Finer precision is truncated to microseconds on the way in.
 */
final class SqliteTimestamps {

    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern(
                    "uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private SqliteTimestamps() {}

    static String format(Instant instant) {
        return FORMAT.format(instant.truncatedTo(ChronoUnit.MICROS));
    }

    /** Parses what {@link #format} writes and, for rows written elsewhere, any ISO-8601 instant or offset form. */
    static Instant parse(String text) {
        return Instant.parse(text);
    }
}
