package dev.serverfs.domain.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TextPagerTest {

    private static TextPage page(byte[] file, long start, int maxLines, int maxBytes, int chunk) {
        return page(file, start, maxLines, maxBytes, chunk, file.length);
    }

    private static TextPage page(byte[] file, long start, int maxLines, int maxBytes, int chunk, long sizeHint) {
        TextPager pager = new TextPager(start, maxLines, maxBytes, sizeHint, "wd:f.txt");
        for (int i = 0; i < file.length; i += chunk) {
            if (!pager.accept(file, i, Math.min(chunk, file.length - i))) {
                break;
            }
        }
        return pager.finish();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "size hint {0}")
    @ValueSource(longs = {-1, 0, 1, 63, 100, 20_000, 1 << 30})
    void pages_are_the_same_whatever_size_the_file_reported(long sizeHint) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < 30_000; i++) {
            text.append("line ")
                    .append(i)
                    .append(" é ")
                    .append("x".repeat(i % 97))
                    .append('\n');
        }
        byte[] file = utf8(text.toString());
        for (int chunk : new int[] {7, 4096, 65536}) {
            for (int[] page : new int[][] {{1, 100_000}, {1, 3}, {50, 20}, {200, 100_000}}) {
                TextPage expected = page(file, page[0], page[1], 25_000, 65536, file.length);
                assertEquals(expected, page(file, page[0], page[1], 25_000, chunk, sizeHint));
            }
        }
    }

    @Test
    void a_file_far_larger_than_it_reported_grows_the_page_by_doubling() {
        byte[] big = new byte[512 << 10];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i % 64 == 63 ? '\n' : 'x');
        }
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        TextPage page = page(big, 1, 1 << 20, 8 << 20, 65536, 0); // a pseudo-file: fstat says 0 bytes
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(big.length, page.bytesReturned());
        // Growing line by line past the reported size would copy (and allocate) ~ n^2/128 bytes: 2 GiB here.
        assertTrue(allocated < 16 << 20, "paging 512 KiB allocated " + allocated + " bytes");
    }

    @ParameterizedTest(name = "chunk {0}")
    @ValueSource(ints = {1, 2, 3, 7, 1024, 65536})
    void pages_are_the_same_for_any_chunking(int chunk) {
        byte[] file = utf8("one\ntwo\nthree\nfour");
        TextPage first = page(file, 1, 2, 1000, chunk);
        assertEquals("one\ntwo\n", first.content());
        assertEquals(2, first.endLine());
        assertTrue(first.hasMore());
        assertEquals(3L, first.nextStartLine());
        TextPage last = page(file, 3, 5, 1000, chunk);
        assertEquals("three\nfour", last.content());
        assertEquals(4, last.endLine());
        assertFalse(last.hasMore());
        assertNull(last.nextStartLine());
    }

    @Test
    void has_more_is_false_when_max_lines_ends_exactly_at_eof() {
        TextPage p = page(utf8("a\nb\n"), 1, 2, 100, 4096);
        assertEquals("a\nb\n", p.content());
        assertFalse(p.hasMore());
    }

    @Test
    void start_beyond_eof_returns_an_empty_page() {
        TextPage p = page(utf8("a\nb\n"), 10, 5, 100, 4096);
        assertEquals("", p.content());
        assertEquals(9, p.endLine());
        assertFalse(p.hasMore());
        assertEquals(0, p.bytesReturned());
    }

    @Test
    void empty_file_has_no_lines() {
        TextPage p = page(new byte[0], 1, 5, 100, 4096);
        assertEquals(0, p.endLine());
        assertEquals("", p.content());
    }

    @Test
    void stops_before_the_line_that_would_overflow_the_byte_budget() {
        TextPage p = page(utf8("12345\n12345\n12345\n"), 1, 100, 13, 3);
        assertEquals("12345\n12345\n", p.content());
        assertEquals(12, p.bytesReturned());
        assertTrue(p.hasMore());
        assertEquals(3L, p.nextStartLine());
    }

    @Test
    void a_single_line_longer_than_the_budget_is_line_too_large() {
        ServerFsException e =
                assertThrows(ServerFsException.class, () -> page(utf8("ok\n" + "x".repeat(20) + "\n"), 1, 100, 10, 5));
        assertEquals(ErrorCode.LINE_TOO_LARGE, e.code());
        assertEquals("wd:f.txt — line 2 exceeds 10 bytes", e.getMessage());
    }

    @Test
    void a_long_line_before_start_line_is_not_checked() {
        TextPage p = page(utf8("x".repeat(50) + "\nshort\n"), 2, 10, 10, 7);
        assertEquals("short\n", p.content());
    }

    @Test
    void nul_in_the_first_1024_bytes_is_binary() {
        byte[] file = utf8("a".repeat(1023) + "\0");
        assertEquals(
                ErrorCode.BINARY_FILE,
                assertThrows(ServerFsException.class, () -> page(file, 1, 10, 1 << 20, 100))
                        .code());
    }

    @Test
    void nul_after_the_first_1024_bytes_is_text() {
        byte[] file = utf8("a".repeat(1024) + "\0\n");
        assertEquals(1025 + 1, page(file, 1, 10, 1 << 20, 100).bytesReturned());
    }

    @Test
    void bom_is_stripped_from_line_one_only() {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] file = concat(bom, utf8("first\n"), bom, utf8("second\n"));
        TextPage p = page(file, 1, 10, 100, 1);
        assertEquals("first\n\uFEFFsecond\n", p.content());
        assertEquals(6 + 3 + 7, p.bytesReturned());
    }

    @Test
    void invalid_utf8_is_unsupported_text_encoding() {
        byte[] file = concat(utf8("ok\n"), new byte[] {(byte) 0xC3, '(', '\n'});
        assertEquals(
                ErrorCode.UNSUPPORTED_TEXT_ENCODING,
                assertThrows(ServerFsException.class, () -> page(file, 1, 10, 100, 100))
                        .code());
        assertEquals("ok\n", page(file, 1, 1, 100, 100).content());
    }

    @Test
    void a_replacement_character_in_the_file_is_text() {
        TextPage p = page(utf8("a\uFFFDb\n\uD83D\uDE00\n"), 1, 10, 100, 3);
        assertEquals("a\uFFFDb\n\uD83D\uDE00\n", p.content());
    }

    @Test
    void every_malformed_sequence_the_strict_decoder_refuses_is_refused() {
        byte[][] malformed = {
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // an encoded surrogate (U+D800)
            {(byte) 0xC0, (byte) 0xAF}, // overlong '/'
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
            {(byte) 0xE2, (byte) 0x82}, // truncated
            {(byte) 0xFF},
        };
        for (byte[] bad : malformed) {
            byte[] file = concat(utf8("x".repeat(40) + "\n"), bad, utf8("\uFFFD\n"));
            assertEquals(
                    ErrorCode.UNSUPPORTED_TEXT_ENCODING,
                    assertThrows(ServerFsException.class, () -> page(file, 1, 10, 100, 7))
                            .code());
        }
    }

    @ParameterizedTest(name = "chunk {0}")
    @ValueSource(ints = {1, 5, 64})
    void a_long_line_after_a_full_page_is_still_line_too_large(int chunk) {
        // The third line cannot join the page (the budget is spent) and is longer than the budget itself.
        byte[] file = utf8("12345\n12345\n" + "y".repeat(14) + "\n");
        assertEquals(
                ErrorCode.LINE_TOO_LARGE,
                assertThrows(ServerFsException.class, () -> page(file, 1, 100, 13, chunk))
                        .code());
        TextPage p = page(utf8("12345\n12345\n" + "y".repeat(12) + "\nz\n"), 1, 100, 13, chunk);
        assertEquals("12345\n12345\n", p.content());
        assertTrue(p.hasMore());
        assertEquals(3L, p.nextStartLine());
    }

    @Test
    void crlf_and_multibyte_lines_keep_their_terminators() {
        TextPage p = page(utf8("é\r\nß\n"), 1, 10, 100, 1);
        assertEquals("é\r\nß\n", p.content());
        assertEquals(7, p.bytesReturned());
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
