package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.adapters.fs.linux.OpenFlags;
import dev.serverfs.adapters.fs.linux.Syscalls;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The byte-level fast paths of {@link FileScanner} against the plain definitions they replace (issue 15): the
 * ASCII case folding of a case-insensitive ASCII query must report exactly the hits of the Unicode pattern on
 * every line (including the Kelvin sign and long s, which fold to ASCII letters, dotted and dotless i, which do not, invalid UTF-8,
 * CRLF, long lines and lines across the 64 KiB buffer), and the eight-bytes-at-a-time scans must equal byte loops.
 */
class FileScannerTest {

    @TempDir
    Path dir;

    private static final String[] WORDS = {
        "needle",
        "NEEDLE",
        "NeEdLe",
        "kelvin",
        "\u212Aelvin",
        "KELVIN",
        "ſtring",
        "String",
        "İd",
        "ıd",
        "ID",
        "é",
        "x",
        " ",
        "\t",
        "[",
        "@",
        "Z",
        "z",
        "需要",
        "😀"
    };

    private byte[] randomText(Random random, int targetBytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (out.size() < targetBytes) {
            int words = random.nextInt(random.nextInt(50) == 0 ? 2000 : 12);
            for (int w = 0; w < words; w++) {
                out.writeBytes(WORDS[random.nextInt(WORDS.length)].getBytes(StandardCharsets.UTF_8));
            }
            if (random.nextInt(40) == 0) {
                out.write(0xFF); // invalid UTF-8 on this line
            }
            out.writeBytes(random.nextInt(6) == 0 ? new byte[] {'\r', '\n'} : new byte[] {'\n'});
        }
        return out.toByteArray();
    }

    private List<String> scan(Path file, FileScanner.Query query) throws Exception {
        int fd = Syscalls.openat(OpenFlags.AT_FDCWD, file.toString(), OpenFlags.O_RDONLY | OpenFlags.O_CLOEXEC, 0);
        try {
            return new FileScanner()
                    .scan(fd, query, 1_000_000, () -> false).stream()
                            .map(h -> h.line() + ":" + h.text().truncated() + ":"
                                    + h.text().text())
                            .toList();
        } finally {
            Syscalls.close(fd);
        }
    }

    @Test
    void ascii_folding_reports_the_hits_of_the_unicode_pattern() throws Exception {
        Random random = new Random(15);
        String[] queries = {"needle", "NEEDLE", "kelvin", "K", "string", "STRING", "id", "I", "e ", "", "x[z", "Z@"};
        for (int round = 0; round < 12; round++) {
            Path file = dir.resolve("f" + round);
            Files.write(file, randomText(random, round % 3 == 0 ? 200_000 : 5_000));
            for (String q : queries) {
                List<String> folded = scan(file, new FileScanner.Query(q, false, true));
                List<String> pattern = scan(file, new FileScanner.Query(q, false, false));
                assertEquals(pattern, folded, "query '" + q + "' in round " + round);
                if (q.equals("kelvin")) {
                    assertTrue(folded.stream().anyMatch(h -> h.contains("\u212A")), "the Kelvin sign folds to k");
                }
            }
        }
    }

    @Test
    void dotted_and_dotless_i_match_only_themselves_as_in_ripgrep() throws Exception {
        // ripgrep folds with Unicode simple case folding, where U+0130 and U+0131 have no mapping; Java's
        // toUpperCase/toLowerCase would make both equal to i and I.
        Path file = dir.resolve("turkish.txt");
        Files.writeString(file, "\u0130d dotted\n\u0131d dotless\nid plain\nID upper\n");
        List<String> expectedAscii = List.of("3:false:id plain", "4:false:ID upper");
        assertEquals(expectedAscii, scan(file, new FileScanner.Query("iD", false, true)));
        assertEquals(expectedAscii, scan(file, new FileScanner.Query("iD", false, false)));
        assertEquals(List.of("1:false:\u0130d dotted"), scan(file, new FileScanner.Query("\u0130D", false)));
        assertEquals(List.of("2:false:\u0131d dotless"), scan(file, new FileScanner.Query("\u0131D", false)));
        // Every other letter still folds as before, a single one too (the capital sharp s folds to the small one).
        Path sharp = dir.resolve("sharp.txt");
        Files.writeString(sharp, "\u1E9E\n\u00DF\n\u212A\n");
        assertEquals(List.of("1:false:\u1E9E", "2:false:\u00DF"), scan(sharp, new FileScanner.Query("\u00DF", false)));
        assertEquals(List.of("3:false:\u212A"), scan(sharp, new FileScanner.Query("k", false)));
    }

    /** {@code text}'s UTF-16 code units as they are (unpaired surrogates too), after a BOM. */
    private static byte[] utf16(boolean bigEndian, String text) {
        byte[] out = new byte[2 + 2 * text.length()];
        for (int i = -1; i < text.length(); i++) {
            char c = i < 0 ? '\uFEFF' : text.charAt(i);
            out[2 * i + 2] = (byte) (bigEndian ? c >> 8 : c);
            out[2 * i + 3] = (byte) (bigEndian ? c : c >> 8);
        }
        return out;
    }

    private List<String> scanBytes(byte[] content, FileScanner.Query query) throws Exception {
        Path file = Files.createTempFile(dir, "f", ".txt");
        Files.write(file, content);
        return scan(file, query);
    }

    /**
     * A UTF-16 file with a BOM is searched as its UTF-8 (ripgrep transcodes it): the same hits as the UTF-8 file,
     * for long lines that grow the buffer and characters cut by its end (a 3- and a 4-byte character 0 to 3 bytes
     * before the end of the 64 KiB buffer) too.
     */
    @Test
    void utf16_with_a_bom_reports_the_hits_of_its_utf8() throws Exception {
        Random random = new Random(16);
        String[] queries = {"needle", "kelvin", "\u9700", "\uD83D\uDE00", ""};
        for (int round = 0; round < 9; round++) {
            StringBuilder text = new StringBuilder();
            if (round < 8) {
                text.append("a".repeat(65_536 - round % 4)).append(round < 4 ? "\u4e00" : "\uD83D\uDE00");
            }
            while (text.length() < 120_000) {
                int words = random.nextInt(random.nextInt(50) == 0 ? 20_000 : 12);
                for (int w = 0; w < words; w++) {
                    text.append(WORDS[random.nextInt(WORDS.length)]);
                }
                text.append(random.nextInt(6) == 0 ? "\r\n" : "\n");
            }
            byte[] utf8 = text.toString().getBytes(StandardCharsets.UTF_8);
            for (boolean bigEndian : new boolean[] {false, true}) {
                byte[] wide = utf16(bigEndian, text.toString());
                for (String q : queries) {
                    for (boolean caseSensitive : new boolean[] {true, false}) {
                        FileScanner.Query query = new FileScanner.Query(q, caseSensitive);
                        assertEquals(
                                scanBytes(utf8, query),
                                scanBytes(wide, query),
                                "query '" + q + "' round " + round + " big endian " + bigEndian);
                    }
                }
            }
        }
    }

    /** What ripgrep 13 does with a UTF-16 BOM (established with rg; RipgrepParityIT compares the same cases). */
    @Test
    void utf16_edge_cases_as_ripgrep() throws Exception {
        FileScanner.Query all = new FileScanner.Query("", true);
        // A BOM needs 3 bytes: a bare FF FE is two bytes of invalid UTF-8 (not shown), FF FE 41 an odd unit.
        assertEquals(List.of(), scanBytes(new byte[] {(byte) 0xFF, (byte) 0xFE}, all));
        assertEquals(List.of("1:false:\uFFFD"), scanBytes(new byte[] {(byte) 0xFF, (byte) 0xFE, 'A'}, all));
        assertEquals(List.of("1:false:\uFFFD"), scanBytes(new byte[] {(byte) 0xFE, (byte) 0xFF, 0}, all));
        // Unpaired surrogates and a truncated last unit become U+FFFD (a high surrogate and a lone byte: one).
        byte[] odd = utf16(false, "x\n\uD800b\n\uDC00\n\uD800\uD800\n\uD83D\uDE00\n\uD800");
        assertEquals(
                List.of(
                        "1:false:x",
                        "2:false:\uFFFDb",
                        "3:false:\uFFFD",
                        "4:false:\uFFFD\uFFFD",
                        "5:false:\uD83D\uDE00",
                        "6:false:\uFFFD"),
                scanBytes(java.util.Arrays.copyOf(odd, odd.length + 1), all));
        // A second BOM right after the first is dropped too; a byte-swapped one is U+FFFE.
        assertEquals(List.of("1:false:a"), scanBytes(utf16(true, "\uFEFFa"), all));
        assertEquals(List.of("1:false:\uFFFEa"), scanBytes(utf16(false, "\uFFFEa"), all));
        // CR stays in the line, as in UTF-8; the search is on the transcoded text.
        assertEquals(
                List.of("1:false:Needle\r"),
                scanBytes(utf16(false, "Needle\r\nx\n"), new FileScanner.Query("needle", false)));
        // No BOM: NUL bytes, binary.
        assertEquals(List.of(), scanBytes(java.util.Arrays.copyOfRange(utf16(false, "needle\n"), 2, 16), all));
        // U+0000 is binary after transcoding: it discards the chunk it is in and ends the file. The first chunk is
        // the units completed by bytes [2, 8195) (the byte after the BOM is read alone, then 8 KiB at a time).
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            lines.append(String.format("needle %05d\n", i)); // 13 units
        }
        FileScanner.Query needle = new FileScanner.Query("needle", true);
        for (int[] unitAndHits : new int[][] {{0, 0}, {4095, 0}, {4096, 315}, {8191, 315}, {8192, 630}}) {
            int unit = unitAndHits[0];
            String withNul = lines.substring(0, unit) + "\u0000" + lines.substring(unit);
            assertEquals(
                    unitAndHits[1], scanBytes(utf16(false, withNul), needle).size(), "U+0000 at unit " + unit);
        }
    }

    @Test
    void byte_scans_equal_byte_loops() {
        Random random = new Random(42);
        byte[] alphabet = {0, '\n', 'a', 'Z', 'A', 'z', '@', '[', (byte) 0x80, (byte) 0xC3, (byte) 0xFF, '`', '{'};
        for (int round = 0; round < 2000; round++) {
            byte[] b = new byte[random.nextInt(100)];
            for (int i = 0; i < b.length; i++) {
                b[i] = random.nextInt(4) == 0 ? alphabet[random.nextInt(alphabet.length)] : (byte) random.nextInt(256);
            }
            int from = b.length == 0 ? 0 : random.nextInt(b.length);
            int to = from + random.nextInt(b.length - from + 1);
            boolean nul = false;
            long newlines = 0;
            int firstNewline = to;
            int firstHigh = to;
            for (int i = to - 1; i >= from; i--) {
                nul |= b[i] == 0;
                if (b[i] == '\n') {
                    newlines++;
                    firstNewline = i;
                }
                if (b[i] < 0) {
                    firstHigh = i;
                }
            }
            assertEquals(nul, ByteScan.hasNul(b, from, to));
            assertEquals(newlines, ByteScan.countNewlines(b, from, to));
            assertEquals(firstNewline, ByteScan.nextNewline(b, from, to));
            assertEquals(firstHigh, ByteScan.nextNonAscii(b, from, to));
            byte[] lowered = new byte[b.length];
            ByteScan.lowerAscii(b, lowered, b.length);
            for (int i = 0; i < b.length; i++) {
                byte want = b[i] >= 'A' && b[i] <= 'Z' ? (byte) (b[i] + 32) : b[i];
                assertEquals(want, lowered[i], "byte " + (b[i] & 0xFF));
            }
        }
        assertFalse(ByteScan.hasNul(new byte[0], 0, 0));
    }
}
