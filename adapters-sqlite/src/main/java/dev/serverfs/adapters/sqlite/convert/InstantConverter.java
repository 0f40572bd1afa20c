package dev.serverfs.adapters.sqlite.convert;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * Every {@code *_at} column (reference §5): ISO-8601 UTC with exactly six fractional digits and a {@code Z}, so text
 * order is time order. Finer precision is truncated to microseconds on the way in; on the way out any ISO-8601
 * instant or offset form is read, for rows written elsewhere.
 */
public final class InstantConverter extends TextColumnConverter<Instant> {
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern(
                    "uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    public InstantConverter() {
        super(Instant.class, "timestamp");
    }

    @Override
    Instant decode(String stored) {
        return Instant.parse(stored);
    }

    @Override
    String encode(Instant value) {
        return FORMAT.format(value.truncatedTo(ChronoUnit.MICROS));
    }
}
