package dev.serverfs.domain.file;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UnifiedDiffTest {

    @Test
    void identical_texts_give_an_empty_diff() {
        assertEquals("", UnifiedDiff.of("a\nb\n", "a\nb\n"));
    }

    @Test
    void separate_changes_give_separate_hunks_as_gnu_diff_does() {
        String before = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
        String after = "a\nB\nc\nd\ne\nf\ng\nh\ni\nJ";
        String expected = "@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n"
                + "@@ -7,4 +7,4 @@\n g\n h\n i\n-j\n+J\n\\ No newline at end of file\n";
        assertEquals(expected, UnifiedDiff.of(before, after));
    }

    @Test
    void filling_an_empty_file_is_one_insertion_hunk() {
        assertEquals("@@ -0,0 +1 @@\n+one\n", UnifiedDiff.of("", "one\n"));
    }

    @Test
    void close_changes_share_one_hunk() {
        String before = "1\n2\n3\n4\n5\n6\n7\n8\n";
        String after = "1\nX\n3\n4\n5\n6\nY\n8\n";
        assertEquals("@@ -1,8 +1,8 @@\n 1\n-2\n+X\n 3\n 4\n 5\n 6\n-7\n+Y\n 8\n", UnifiedDiff.of(before, after));
    }

    @Test
    void insertion_in_the_middle_keeps_the_common_lines_as_context() {
        assertEquals("@@ -1,2 +1,3 @@\n a\n+x\n b\n", UnifiedDiff.of("a\nb\n", "a\nx\nb\n"));
    }

    @Test
    void deleting_everything_is_one_deletion_hunk() {
        assertEquals("@@ -1,2 +0,0 @@\n-a\n-b\n", UnifiedDiff.of("a\nb\n", ""));
    }

    @Test
    void interleaved_changes_are_aligned_on_the_longest_common_subsequence() {
        assertEquals("@@ -1,5 +1,4 @@\n-x\n a\n b\n-y\n c\n+z\n", UnifiedDiff.of("x\na\nb\ny\nc\n", "a\nb\nc\nz\n"));
    }
}
