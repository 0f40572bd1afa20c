package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
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
        SessionTranscripts.rewrite(home, "sessions", 1, "t.jsonl"::equals, name -> true, line -> switch (line) {
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
        SessionTranscripts.rewrite(home, "sessions", 1, "t.jsonl"::equals, name -> true, line -> Optional.empty());
        assertEquals("x\n", Files.readString(shallow));
        assertEquals("x\n", Files.readString(deep));
        assertEquals("", Files.readString(right));
    }

    @Test
    void put_right_rewrites_at_every_depth_down_to_the_one_asked_for_and_removes_links_and_what_it_is_told()
            throws Exception {
        Path top = Files.writeString(
                Files.createDirectories(home.resolve("sessions")).resolve("t.jsonl"), "x\n");
        Path deep = Files.writeString(
                Files.createDirectories(home.resolve("sessions/a/b")).resolve("t.jsonl"), "x\n");
        Path gone = Files.writeString(home.resolve("sessions/a/t.zst"), "x");
        Path outside = Files.writeString(home.resolve("outside"), "x\n");
        Path link = Files.createSymbolicLink(home.resolve("sessions/a/b/l.jsonl"), outside);
        SessionTranscripts.putRight(
                home,
                "sessions",
                2,
                n -> n.endsWith(".jsonl"),
                n -> n.endsWith(".zst"),
                n -> true,
                l -> Optional.empty());
        assertEquals("", Files.readString(top));
        assertEquals("", Files.readString(deep));
        assertFalse(Files.exists(gone));
        assertFalse(Files.exists(link, LinkOption.NOFOLLOW_LINKS));
        assertEquals("x\n", Files.readString(outside), "what the link named is left alone");
        Files.createDirectories(home.resolve("sessions/a/b/c"));
        assertThrows(
                IOException.class,
                () -> SessionTranscripts.putRight(home, "sessions", 2, n -> true, n -> false, n -> true, Optional::of),
                "a directory deeper than asked for");
    }

    @Test
    void a_transcript_that_needs_no_change_is_not_replaced() throws Exception {
        Path t = Files.writeString(
                Files.createDirectories(home.resolve("sessions")).resolve("t.jsonl"), "keep\n");
        Object before = Files.readAttributes(t, BasicFileAttributes.class).fileKey();
        SessionTranscripts.rewrite(home, "sessions", 0, "t.jsonl"::equals, name -> true, Optional::of);
        assertEquals(before, Files.readAttributes(t, BasicFileAttributes.class).fileKey(), "the same file");
        try (var names = Files.list(home.resolve("sessions"))) {
            assertEquals(1, names.count(), "no temporary left");
        }
    }

    /**
     * Probe S2: a transcript a running provider writes was replaced under it by the next child's start, and the
     * records it wrote on went to the replaced file. The writer here is another process, as a provider child is.
     */
    @Test
    void a_transcript_another_process_holds_open_is_left_to_its_writer() throws Exception {
        Path t = Files.writeString(
                Files.createDirectories(home.resolve("sessions")).resolve("t.jsonl"), "forged\n");
        Process writer = holdOpen(t);
        try {
            SessionTranscripts.rewrite(home, "sessions", 0, "t.jsonl"::equals, name -> true, line -> Optional.empty());
            writer.getOutputStream().write('\n');
            writer.getOutputStream().flush();
            assertEquals(0, writer.waitFor());
        } finally {
            writer.destroyForcibly().waitFor();
        }
        assertEquals("forged\nlate\n", Files.readString(t), "the writer's record reached the transcript");
        SessionTranscripts.rewrite(home, "sessions", 0, "t.jsonl"::equals, name -> true, line -> Optional.empty());
        assertEquals("", Files.readString(t), "put right once nothing holds it");
    }

    @Test
    void a_transcript_the_caller_wants_put_right_is_put_right_though_held_open() throws Exception {
        Path t = Files.writeString(
                Files.createDirectories(home.resolve("sessions")).resolve("t.jsonl"), "forged\n");
        Process writer = holdOpen(t);
        try {
            SessionTranscripts.rewrite(home, "sessions", 0, "t.jsonl"::equals, name -> false, line -> Optional.empty());
            assertEquals("", Files.readString(t));
        } finally {
            writer.destroyForcibly().waitFor();
        }
    }

    /** A shell that holds {@code file} open for appending, and appends a line once it reads one. */
    private static Process holdOpen(Path file) throws Exception {
        Process writer = new ProcessBuilder(
                        "sh", "-c", "exec 3>>\"$0\"; echo open; read x; echo late >&3", file.toString())
                .redirectErrorStream(true)
                .start();
        assertEquals(
                "open",
                new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8)).readLine());
        return writer;
    }

    private static byte[] concat(byte[]... parts) {
        var out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
