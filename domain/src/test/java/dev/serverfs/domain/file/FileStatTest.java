package dev.serverfs.domain.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FileStatTest {

    private static final FileStat REGULAR =
            new FileStat(2049, 131, 0100644, 1000, 1000, 12, 1_700_000_000_123_456_789L, 1_700_000_001_987_654_321L, 1);

    @Test
    void revision_matches_the_reference_golden_vector() {
        // sha256("2049:131:33188:1000:1000:12:1700000000123456789:1700000001987654321:1")[:16]
        assertEquals("v1:8fe28d727f86caa1", REGULAR.revision().token());
    }

    @Test
    void revision_changes_with_any_field() {
        FileStat touched = new FileStat(
                2049, 131, 0100644, 1000, 1000, 12, 1_700_000_000_123_456_790L, 1_700_000_001_987_654_321L, 1);
        FileStat linked = new FileStat(
                2049, 131, 0100644, 1000, 1000, 12, 1_700_000_000_123_456_789L, 1_700_000_001_987_654_321L, 2);
        assertNotEquals(REGULAR.revision(), touched.revision());
        assertNotEquals(REGULAR.revision(), linked.revision());
    }

    @Test
    void revision_prints_unsigned_values() {
        FileStat huge = new FileStat(-1L, -1L, 0100644, -1, -1, 0, 0, 0, 1);
        // sha256("18446744073709551615:18446744073709551615:33188:4294967295:4294967295:0:0:0:1")[:16]
        assertEquals("v1:34d22be8ceb57916", huge.revision().token());
    }

    @Test
    void modified_at_is_utc_whole_seconds() {
        assertEquals("2023-11-14T22:13:20Z", REGULAR.modifiedAt());
        FileStat beforeEpoch = new FileStat(1, 1, 0100644, 0, 0, 0, -1, 0, 1);
        assertEquals("1969-12-31T23:59:59Z", beforeEpoch.modifiedAt());
    }

    @Test
    void modified_at_matches_the_rfc3339_formatter_over_the_whole_range() {
        DateTimeFormatter formatter =
                DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
        List<Long> samples = new ArrayList<>(List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L));
        // A deterministic sweep over the whole long range (about 11 days apart, plus an odd offset so every
        // field takes many values).
        for (long i = 0; i < 20_000; i++) {
            samples.add(Long.MIN_VALUE + i * (Long.MAX_VALUE / 10_000) + i * 7_919_000_003L);
        }
        for (long nanos : samples) {
            FileStat stat = new FileStat(1, 1, 0100644, 0, 0, 0, nanos, 0, 1);
            String expected = formatter.format(Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L)));
            assertEquals(expected, stat.modifiedAt(), "mtime " + nanos);
        }
    }

    @Test
    void times_past_2262_keep_their_value() {
        // 2300-01-01T00:00:00.000000005Z: its nanoseconds since the epoch no longer fit in a long.
        FileStat late = new FileStat(2049, 131, 0100644, 1000, 1000, 12, 10_413_792_000L, 5, -1L, 999_999_999, 1);
        assertEquals("10413792000000000005", late.mtimeNanosDecimal());
        assertEquals("-1", late.ctimeNanosDecimal());
        // sha256("2049:131:33188:1000:1000:12:10413792000000000005:-1:1")[:16]
        assertEquals("v1:fd87ea9ebe07c7a1", late.revision().token());
        assertEquals("2300-01-01T00:00:00Z", late.modifiedAt());
    }

    @Test
    void modified_at_outside_four_digit_years_reads_as_the_nearest_bound() {
        assertEquals("9999-12-31T23:59:59Z", at(Long.MAX_VALUE).modifiedAt());
        assertEquals("0001-01-01T00:00:00Z", at(Long.MIN_VALUE).modifiedAt());
        assertEquals(
                Long.toString(Long.MAX_VALUE) + "000000000", at(Long.MAX_VALUE).mtimeNanosDecimal());
        assertEquals(
                Long.toString(Long.MIN_VALUE) + "000000000", at(Long.MIN_VALUE).mtimeNanosDecimal());
    }

    private static FileStat at(long seconds) {
        return new FileStat(1, 1, 0100644, 0, 0, 0, seconds, 0, 0, 0, 1);
    }

    @Test
    void type_comes_from_the_mode_bits() {
        assertEquals(FileType.FILE, REGULAR.type());
        assertEquals(FileType.DIRECTORY, withMode(0040755).type());
        assertEquals(FileType.SYMLINK, withMode(0120777).type());
        assertEquals(FileType.OTHER, withMode(0010644).type());
        assertEquals(FileType.OTHER, withMode(0140755).type());
        assertEquals(FileType.OTHER, withMode(0020666).type());
    }

    private static FileStat withMode(int mode) {
        return new FileStat(1, 1, mode, 0, 0, 0, 0, 0, 1);
    }
}
