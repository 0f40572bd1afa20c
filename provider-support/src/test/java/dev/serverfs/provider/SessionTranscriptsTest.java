package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionTranscriptsTest {
    @TempDir
    Path home;

    @Test
    void a_line_the_edit_keeps_stays_byte_for_byte_and_the_others_are_rewritten_or_left_out() throws Exception {
        Path t = Files.createDirectories(home.resolve("sessions/a")).resolve("t.jsonl");
        byte[] malformed = {'{', '"', 'x', '"', ':', '"', (byte) 0xff, '"', '}', '\n'};
        Files.write(t, concat("drop\n".getBytes(StandardCharsets.UTF_8), malformed, "swap\nlast".getBytes()));
        SessionTranscripts.rewrite(home, "sessions", 1, "t.jsonl"::equals, line -> switch (line) {
            case "drop" -> Optional.empty();
            case "swap" -> Optional.of("swapped");
            default -> Optional.of(line);
        });
        assertArrayEquals(concat(malformed, "swapped\nlast".getBytes(StandardCharsets.UTF_8)), Files.readAllBytes(t));
    }

    @Test
    void only_files_at_the_depth_asked_for_are_rewritten() throws Exception {
        Path shallow = Files.writeString(
                Files.createDirectories(home.resolve("sessions")).resolve("t.jsonl"), "x\n");
        Path deep = Files.writeString(
                Files.createDirectories(home.resolve("sessions/a/b")).resolve("t.jsonl"), "x\n");
        Path right = Files.writeString(home.resolve("sessions/a/t.jsonl"), "x\n");
        SessionTranscripts.rewrite(home, "sessions", 1, "t.jsonl"::equals, line -> Optional.empty());
        assertEquals("x\n", Files.readString(shallow));
        assertEquals("x\n", Files.readString(deep));
        assertEquals("", Files.readString(right));
    }

    private static byte[] concat(byte[]... parts) {
        var out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
