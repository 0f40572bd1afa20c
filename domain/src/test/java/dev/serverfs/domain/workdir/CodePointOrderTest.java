package dev.serverfs.domain.workdir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CodePointOrderTest {

    @Test
    void sorts_supplementary_characters_after_the_basic_plane() {
        String emoji = "\uD83D\uDE00"; // U+1F600
        String privateUse = "\uE000";
        String fullwidth = "\uFF21";
        List<String> names = new ArrayList<>(List.of(emoji, fullwidth, privateUse, "b", "B", "a", "ab", "é"));
        names.sort(CodePointOrder.NAMES);
        assertEquals(List.of("B", "a", "ab", "b", "é", privateUse, fullwidth, emoji), names);
    }

    @Test
    void sort_agrees_with_the_comparator_with_and_without_supplementary_characters() {
        String emoji = "\uD83D\uDE00";
        List<String> plain = List.of("b", "B", "a", "ab", "é", "\uFF21", "file-10", "file-9", "file-1", "");
        List<String> withEmoji = new ArrayList<>(plain);
        withEmoji.add(emoji);
        withEmoji.add("\uE000");
        for (List<String> input : List.of(plain, withEmoji)) {
            List<String> expected = new ArrayList<>(input);
            expected.sort(CodePointOrder.NAMES);
            List<String> sorted = new ArrayList<>(input);
            CodePointOrder.sort(sorted);
            assertEquals(expected, sorted);
        }
    }

    @Test
    void sort_puts_a_supplementary_character_after_the_private_use_area() {
        List<String> names = new ArrayList<>(List.of("\uD83D\uDE00", "\uE000"));
        CodePointOrder.sort(names);
        assertEquals(List.of("\uE000", "\uD83D\uDE00"), names);
    }
}
