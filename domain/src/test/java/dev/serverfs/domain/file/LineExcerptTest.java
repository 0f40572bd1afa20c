package dev.serverfs.domain.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LineExcerptTest {

    private static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    @Test
    void a_line_within_the_cap_is_returned_whole() {
        String line = "x".repeat(LineExcerpt.MAX_BYTES - 6) + "needle";
        assertEquals(new LineExcerpt(line, false), LineExcerpt.of(line, line.length() - 6, line.length(), false));
        assertEquals(new LineExcerpt("ab", true), LineExcerpt.of("ab", 0, 1, true));
    }

    @Test
    void a_long_line_is_cut_around_its_match_with_context_on_both_sides() {
        String line = "a".repeat(10_000) + "needle" + "b".repeat(10_000);
        LineExcerpt e = LineExcerpt.of(line, 10_000, 10_006, false);
        assertTrue(e.truncated());
        assertEquals(LineExcerpt.MAX_BYTES, bytes(e.text()));
        int at = e.text().indexOf("needle");
        assertTrue(at > 400 && at < 600, "match near the middle, at " + at);
    }

    @Test
    void context_unused_at_one_end_goes_to_the_other() {
        String line = "needle" + "b".repeat(5_000);
        LineExcerpt start = LineExcerpt.of(line, 0, 6, false);
        assertEquals(line.substring(0, LineExcerpt.MAX_BYTES), start.text());
        String tail = "a".repeat(5_000) + "needle";
        LineExcerpt end = LineExcerpt.of(tail, 5_000, 5_006, false);
        assertEquals(tail.substring(tail.length() - LineExcerpt.MAX_BYTES), end.text());
    }

    @Test
    void cuts_fall_on_character_boundaries_and_never_split_a_pair() {
        String line = "\u00e9".repeat(3_000) + "\ud83d\ude00needle\ud83d\ude00" + "\u4e2d".repeat(3_000);
        int at = line.indexOf("needle");
        LineExcerpt e = LineExcerpt.of(line, at, at + 6, false);
        assertTrue(bytes(e.text()) <= LineExcerpt.MAX_BYTES);
        assertTrue(bytes(e.text()) > LineExcerpt.MAX_BYTES - 4);
        assertTrue(e.text().contains("\ud83d\ude00needle\ud83d\ude00"));
        assertFalse(Character.isLowSurrogate(e.text().charAt(0)));
        assertFalse(Character.isHighSurrogate(e.text().charAt(e.text().length() - 1)));
        assertEquals(e.text(), new String(e.text().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
    }

    @Test
    void a_match_longer_than_the_cap_is_shown_from_its_start() {
        String match = "m".repeat(3 * LineExcerpt.MAX_BYTES);
        String line = "before " + match + " after";
        LineExcerpt e = LineExcerpt.of(line, 7, 7 + match.length(), false);
        assertEquals(match.substring(0, LineExcerpt.MAX_BYTES), e.text());
        assertTrue(e.truncated());
        assertThrows(IllegalArgumentException.class, () -> LineExcerpt.of("abc", 2, 5, false));
    }
}
