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
}
