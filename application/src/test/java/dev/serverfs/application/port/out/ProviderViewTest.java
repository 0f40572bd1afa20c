package dev.serverfs.application.port.out;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.domain.workdir.WorkdirPath;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A concealed entry is a relative path's bytes, compared by value, that never shows a name. */
class ProviderViewTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void an_entry_is_its_bytes_whatever_they_are() {
        byte[] raw = {'a', '/', (byte) 0xff, '\n', ' '};
        ProviderView.Concealed entry = new ProviderView.Concealed(raw, true);
        raw[0] = 'b';
        assertArrayEquals(new byte[] {'a', '/', (byte) 0xff, '\n', ' '}, entry.path(), "copied in");
        entry.path()[0] = 'b';
        assertEquals('a', entry.path()[0], "copied out");
        assertEquals(new ProviderView.Concealed(new byte[] {'a', '/', (byte) 0xff, '\n', ' '}, true), entry);
        assertEquals(
                new ProviderView.Concealed(bytes("é/.env"), false),
                new ProviderView.Concealed(new WorkdirPath(List.of("é", ".env")), false));
        assertFalse(entry.toString().contains("a/"), "no name shown: " + entry);
    }

    @Test
    void the_root_and_paths_that_are_not_normalised_are_refused() {
        for (String bad : List.of("", "/a", "a/", "a//b", ".", "..", "a/./b", "a/../b", "a\0b")) {
            assertThrows(IllegalArgumentException.class, () -> new ProviderView.Concealed(bytes(bad), false), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> new ProviderView.Concealed(WorkdirPath.ROOT, true));
        new ProviderView.Concealed(bytes("..a/.b/a..b"), false);
    }
}
