package dev.serverfs.adapters.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class SqliteTimestampsTest {

    @Test
    void timestamps_are_utc_with_six_fractional_digits_and_z() {
        assertEquals("2026-11-30T03:04:05.000000Z", SqliteTimestamps.format(Instant.parse("2026-11-30T03:04:05Z")));
        assertEquals(
                "2026-11-30T03:04:05.123456Z",
                SqliteTimestamps.format(Instant.parse("2026-11-30T03:04:05.123456789Z")));
    }

    @Test
    void parsing_reads_back_what_formatting_wrote_and_offset_forms() {
        Instant micros = Instant.parse("2026-11-30T03:04:05.123456Z");
        assertEquals(micros, SqliteTimestamps.parse(SqliteTimestamps.format(micros)));
        assertEquals(micros, SqliteTimestamps.parse("2026-11-30T03:04:05.123456+00:00"));
    }
}
