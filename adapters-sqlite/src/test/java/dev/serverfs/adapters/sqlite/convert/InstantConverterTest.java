package dev.serverfs.adapters.sqlite.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class InstantConverterTest {
    private final InstantConverter timestamps = new InstantConverter();

    @Test
    void timestamps_are_utc_with_six_fractional_digits_and_z() {
        assertEquals("2026-11-30T03:04:05.000000Z", timestamps.to(Instant.parse("2026-11-30T03:04:05Z")));
        assertEquals("2026-11-30T03:04:05.123456Z", timestamps.to(Instant.parse("2026-11-30T03:04:05.123456789Z")));
    }

    @Test
    void parsing_reads_back_what_formatting_wrote_and_offset_forms() {
        Instant micros = Instant.parse("2026-11-30T03:04:05.123456Z");
        assertEquals(micros, timestamps.from(timestamps.to(micros)));
        assertEquals(micros, timestamps.from("2026-11-30T03:04:05.123456+00:00"));
    }

    @Test
    void sql_null_is_java_null_both_ways() {
        assertNull(timestamps.from(null));
        assertNull(timestamps.to(null));
    }
}
