package dev.serverfs.domain.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextEditsTest {

    private static final String LABEL = "wd:f.txt";

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ErrorCode code(Runnable r) {
        return assertThrows(ServerFsException.class, r::run).code();
    }

    @Test
    void edits_apply_in_order_and_replace_every_occurrence() {
        EditedText out = TextEdits.apply(
                utf8("a a b\n"), List.of(new TextEdit("a", "b", 2), new TextEdit("b b b", "c", 1)), 100, LABEL);
        assertArrayEquals(utf8("c\n"), out.content());
        assertEquals(2, out.editsApplied());
        assertEquals("@@ -1 +1 @@\n-a a b\n+c\n", out.diff());
    }

    @Test
    void a_wrong_count_is_an_edit_conflict_naming_both_counts() {
        ServerFsException e = assertThrows(
                ServerFsException.class,
                () -> TextEdits.apply(utf8("x x x"), List.of(new TextEdit("x", "y", 2)), 100, LABEL));
        assertEquals(ErrorCode.EDIT_CONFLICT, e.code());
        assertEquals("wd:f.txt — expected 2 occurrence(s), found 3", e.getMessage());
    }

    @Test
    void occurrences_are_counted_without_overlap() {
        assertEquals(2, TextEdits.count("aaaa", "aa"));
        assertEquals(1, TextEdits.count("aaa", "aa"));
    }

    @Test
    void a_failing_later_edit_applies_nothing() {
        assertEquals(
                ErrorCode.EDIT_CONFLICT,
                code(() -> TextEdits.apply(
                        utf8("abc"), List.of(new TextEdit("a", "z", 1), new TextEdit("q", "r", 1)), 100, LABEL)));
    }

    @Test
    void empty_old_text_only_fills_an_empty_file() {
        assertArrayEquals(
                utf8("new"),
                TextEdits.apply(new byte[0], List.of(new TextEdit("", "new", 1)), 100, LABEL)
                        .content());
        assertEquals(
                ErrorCode.EDIT_CONFLICT,
                code(() -> TextEdits.apply(utf8("x"), List.of(new TextEdit("", "new", 1)), 100, LABEL)));
        assertEquals(
                ErrorCode.EDIT_CONFLICT,
                code(() -> TextEdits.apply(new byte[0], List.of(new TextEdit("", "new", 2)), 100, LABEL)));
    }

    @Test
    void a_bom_is_hidden_from_matching_and_kept() {
        byte[] original = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'a', 'b'};
        EditedText out = TextEdits.apply(original, List.of(new TextEdit("ab", "cd", 1)), 100, LABEL);
        assertArrayEquals(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'c', 'd'}, out.content());
    }

    @Test
    void nul_in_the_file_is_binary_and_invalid_utf8_unsupported() {
        assertEquals(
                ErrorCode.BINARY_FILE,
                code(() -> TextEdits.apply(new byte[] {'a', 0}, List.of(new TextEdit("a", "b", 1)), 100, LABEL)));
        assertEquals(
                ErrorCode.UNSUPPORTED_TEXT_ENCODING,
                code(() -> TextEdits.apply(
                        new byte[] {'a', (byte) 0xC3}, List.of(new TextEdit("a", "b", 1)), 100, LABEL)));
    }

    @Test
    void a_result_over_the_limit_is_too_large() {
        assertEquals(
                ErrorCode.WRITE_TOO_LARGE,
                code(() -> TextEdits.apply(utf8("ab"), List.of(new TextEdit("a", "aaaa", 1)), 4, LABEL)));
    }

    @Test
    void validation_checks_count_then_size_then_content() {
        List<TextEdit> many = Collections.nCopies(51, new TextEdit("a", "b", 1));
        assertEquals(ErrorCode.TOO_MANY_EDITS, code(() -> TextEdits.validate(many, 50, 100, LABEL)));
        assertEquals(
                ErrorCode.WRITE_TOO_LARGE,
                code(() -> TextEdits.validate(List.of(new TextEdit("aaa", "bbb", 1)), 50, 5, LABEL)));
        assertEquals(
                ErrorCode.BINARY_CONTENT_NOT_ALLOWED,
                code(() -> TextEdits.validate(List.of(new TextEdit("a", "b\0", 1)), 50, 100, LABEL)));
        // size before content, even when a later or earlier text has a NUL or an unpaired surrogate
        assertEquals(
                ErrorCode.WRITE_TOO_LARGE,
                code(() -> TextEdits.validate(
                        List.of(new TextEdit("a\0", "b", 1), new TextEdit("aaa", "bbb", 1)), 50, 5, LABEL)));
        assertEquals(
                ErrorCode.WRITE_TOO_LARGE,
                code(() -> TextEdits.validate(List.of(new TextEdit("\uD800", "bbbbb", 1)), 50, 5, LABEL)));
        assertEquals(
                ErrorCode.BINARY_CONTENT_NOT_ALLOWED,
                code(() -> TextEdits.validate(List.of(new TextEdit("\uD800", "b", 1)), 50, 5, LABEL)));
        // the size counts UTF-8 bytes: é is 2, 😀 (a surrogate pair) 4
        TextEdits.validate(List.of(new TextEdit("é😀", "", 1)), 50, 6, LABEL);
        assertEquals(
                ErrorCode.WRITE_TOO_LARGE,
                code(() -> TextEdits.validate(List.of(new TextEdit("é😀", "", 1)), 50, 5, LABEL)));
        assertEquals(ErrorCode.EDIT_CONFLICT, code(() -> TextEdits.validate(List.of(), 50, 100, LABEL)));
    }

    @Test
    void create_content_is_byte_exact_and_refuses_nul_lone_surrogates_and_oversize() {
        assertArrayEquals(utf8("é\r\n"), TextEdits.contentBytes("é\r\n", 10, LABEL));
        assertEquals(ErrorCode.BINARY_CONTENT_NOT_ALLOWED, code(() -> TextEdits.contentBytes("a\0", 10, LABEL)));
        assertEquals(ErrorCode.BINARY_CONTENT_NOT_ALLOWED, code(() -> TextEdits.contentBytes("a\uD800", 10, LABEL)));
        assertEquals(ErrorCode.WRITE_TOO_LARGE, code(() -> TextEdits.contentBytes("ééé", 5, LABEL)));
    }
}
