package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.in.SearchTextUseCase.SearchTextQuery;
import dev.serverfs.application.port.in.SearchTextUseCase.TextMatches;
import dev.serverfs.application.service.SearchTextService;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code search_text} against the real ripgrep, invoked with the reference's argv (contract reference §2.4), on
 * a generated tree with {@code .gitignore}/{@code .ignore}/{@code .rgignore} files inside and outside a git
 * repository, binary files (NUL early and after the first 64 KiB buffer), hidden entries, symlinks, CRLF, BOM and
 * invalid UTF-8 lines, files over the size ceiling, UTF-16 files with and without a BOM (odd lengths, unpaired
 * surrogates, U+0000 before and after ripgrep's 8 KiB transcoding chunks, long lines, a raw size over the ceiling
 * whose UTF-8 is under it). The sets of (path, line, text) must be equal. CI installs
 * ripgrep; a missing {@code rg} fails with an explicit message.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RipgrepParityIT {

    private static final long MAX_FILE_BYTES = 4000;
    private static final long LARGE_FILE_BYTES = 1 << 20;

    @TempDir
    static Path base;

    Path root;
    Path home;
    LinuxWorkdirFileSystem fs;
    SearchTextService search;
    /** The same tree with a ceiling of {@link #LARGE_FILE_BYTES}, for the UTF-16 files over 8 KiB. */
    SearchTextService searchLarge;

    @BeforeAll
    void generate() throws IOException {
        root = Files.createDirectory(base.resolve("wd"));
        home = Files.createDirectory(base.resolve("home"));
        Random random = new Random(20260529L);
        // Outside any repository: .gitignore is NOT honoured, .ignore and .rgignore are.
        write("plain/.gitignore", "*.txt\n");
        write("plain/.ignore", "ignored-by-dot-ignore/\n*.log\n");
        write("plain/.rgignore", "!keep.log\n");
        // A repository with nested rules, negation, anchoring and double stars.
        Files.createDirectories(root.resolve("repo/.git/info"));
        write("repo/.git/info/exclude", "excluded-by-info.md\n");
        write("repo/.git/HEAD", "needle in git metadata\n");
        write("repo/.gitignore", "build/\n*.tmp\n!important.tmp\n/rooted.txt\n**/gen/**\ndocs/*.md\n");
        write("repo/sub/.gitignore", "!*.tmp\nlocal-only.txt\n");
        write("repo/sub/.ignore", "from-ignore.txt\n");
        write("repo/.hg/store", "needle in hg\n");
        write("repo/.serverfs-tmp-1/x", "needle in temp\n");
        String[] dirs = {
            "plain",
            "plain/ignored-by-dot-ignore",
            "repo",
            "repo/build",
            "repo/sub",
            "repo/sub/deeper",
            "repo/src/gen/x",
            "repo/docs",
            "repo/docs/api",
            ".hidden",
            "repo/.config",
            "misc",
            "misc/ünï"
        };
        String[] names = {
            "a.txt",
            "b.md",
            "c.log",
            "keep.log",
            "d.tmp",
            "important.tmp",
            "rooted.txt",
            "local-only.txt",
            "from-ignore.txt",
            "excluded-by-info.md",
            ".dotfile",
            "Main.java",
            "ütf.txt"
        };
        for (String dir : dirs) {
            for (String name : names) {
                if (random.nextInt(3) == 0) {
                    continue;
                }
                write(dir + "/" + name, text(random));
            }
        }
        // Binary: NUL in the first buffer (nothing reported) and after 64 KiB (earlier buffers reported).
        writeBytes("misc/early.bin", concat("needle first\n".getBytes(StandardCharsets.UTF_8), new byte[] {0, 1, 2}));
        StringBuilder late = new StringBuilder("needle at the top\n");
        while (late.length() < 70_000) {
            late.append("filler line without the word\n");
        }
        late.append("needle just before the nul\n");
        writeBytes(
                "misc/late.bin",
                concat(
                        late.toString().getBytes(StandardCharsets.UTF_8),
                        new byte[] {0},
                        "needle after\n".getBytes(StandardCharsets.UTF_8)));
        writeBytes(
                "misc/bom.txt",
                concat(
                        new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                        "needle bom\n".getBytes(StandardCharsets.UTF_8)));
        writeBytes(
                "misc/invalid.txt",
                concat(
                        "needle \u00e9 ok\n".getBytes(StandardCharsets.UTF_8),
                        new byte[] {'n', 'e', 'e', 'd', 'l', 'e', ' ', (byte) 0xFF, '\n'},
                        "NEEDLE upper\n".getBytes(StandardCharsets.UTF_8)));
        write("misc/crlf.txt", "needle crlf\r\nsecond needle\r\n");
        write("misc/huge.txt", "needle in a file over the ceiling\n" + "x".repeat((int) MAX_FILE_BYTES));
        write("misc/notrail.txt", "no newline needle");
        write("misc/Kelvin.txt", "\u212Aelvin sign\nkelvin lower\n");
        // Dotted capital I and dotless small i have no simple case folding: ripgrep matches them only as themselves.
        write("misc/turkish.txt", "\u0130d dotted\n\u0131d dotless\nid plain\nID upper\n\u1E9E \u00DF sharp\n");
        utf16Fixture();
        longLineFixture();
        Files.createSymbolicLink(root.resolve("misc/link.txt"), root.resolve("misc/crlf.txt"));
        Files.createSymbolicLink(root.resolve("misc/linkdir"), root.resolve("repo"));
        fs = new LinuxWorkdirFileSystem();
        WorkdirPolicy policy = new WorkdirPolicy(
                true, true, List.of(), 524288, 500, 1 << 20, false, 8 << 20, AgentMode.DISABLED, new TreeSet<>());
        Workdirs workdirs = new Workdirs(
                List.of(new Workdir(1, new WorkdirAlias("wd"), Optional.empty(), Access.READ_ONLY, policy, root)));
        ServerLimits limits =
                new ServerLimits(100, 500, 100_000, 100_000, 200_000, Duration.ofSeconds(60), MAX_FILE_BYTES, 50);
        search = new SearchTextService(workdirs, limits, fs);
        ServerLimits large =
                new ServerLimits(100, 500, 100_000, 100_000, 200_000, Duration.ofSeconds(60), LARGE_FILE_BYTES, 50);
        searchLarge = new SearchTextService(workdirs, large, fs);
    }

    /**
     * UTF-16 files, which ripgrep transcodes to UTF-8 when they start with a BOM (at least 3 bytes in all), reading
     * the raw file 8 KiB at a time: U+0000 ends the search at the transcoded chunk it is in.
     */
    private void utf16Fixture() throws IOException {
        String text = "first line\nneedle le\nthird NEEDLE\r\nNeedle \u00e9 \u4e00 \uD83D\uDE00 x\n"
                + "\u212Aelvin needle\nlast needle without newline";
        writeBytes("utf16/le.txt", utf16(false, true, text));
        writeBytes("utf16/be.txt", utf16(true, true, text));
        writeBytes("utf16/no-bom.txt", utf16(false, false, "needle no bom\n"));
        writeBytes("utf16/bom-only-le.txt", new byte[] {(byte) 0xFF, (byte) 0xFE});
        writeBytes("utf16/bom-only-be.txt", new byte[] {(byte) 0xFE, (byte) 0xFF});
        writeBytes("utf16/bom-and-a-byte.txt", new byte[] {(byte) 0xFF, (byte) 0xFE, 'A'});
        writeBytes("utf16/odd.txt", concat(utf16(false, true, "needle odd\nx"), new byte[] {'A'}));
        writeBytes("utf16/odd-be.txt", concat(utf16(true, true, "needle odd be\n"), new byte[] {0}));
        writeBytes(
                "utf16/surrogates.txt",
                utf16(
                        false,
                        true,
                        "needle a \uD800b\nneedle b \uDC00\nneedle c \uD800\uD800\n"
                                + "needle d \uDE00\uD83D\nneedle e \uD800"));
        writeBytes("utf16/surrogate-odd.txt", concat(utf16(true, true, "needle f \uD800"), new byte[] {'A'}));
        writeBytes("utf16/double-bom.txt", utf16(false, true, "\uFEFFneedle double bom\n"));
        writeBytes("utf16/swapped-bom.txt", utf16(false, true, "\uFFFEneedle swapped bom\n"));
        writeBytes("utf16/nul-first.txt", utf16(false, true, "needle before\n\u0000needle after\n"));
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            lines.append(String.format("needle %05d\n", i));
        }
        // ripgrep's first chunk is the units completed by bytes [2, 8195) (the byte after the BOM is read alone, then
        // 8 KiB at a time): U+0000 as unit 4095 ends with byte 8193 (nothing reported), as 4096 with byte 8195 (the
        // lines of the first chunk reported), as 8192 in the third chunk.
        for (int unit : new int[] {4095, 4096, 8192}) {
            String withNul = lines.substring(0, unit) + "\u0000" + lines.substring(unit);
            writeBytes("utf16/nul-" + unit + ".txt", utf16(false, true, withNul));
        }
        writeBytes(
                "utf16/long.txt",
                utf16(
                        true,
                        true,
                        "a".repeat(600) + "needle" + "\u00e9".repeat(500) + "\nneedle " + "\u4e00".repeat(400)));
        // A line of 120 KB of UTF-8: the line buffer grows, and a character is cut by its end.
        writeBytes(
                "utf16/wide.txt",
                utf16(false, true, "\u4e00".repeat(40_000) + "needle\n" + "a".repeat(65_533) + "\uD83D\uDE00needle\n"));
        // 4098 bytes on disk, 2049 in UTF-8: over the ceiling, as ripgrep counts the file's own size.
        writeBytes("utf16/over-ceiling.txt", utf16(false, true, "needle over\n" + "x".repeat(2037)));
        writeBytes("utf16/at-ceiling.txt", utf16(false, true, "needle at\n" + "x".repeat(1989)));
    }

    /** {@code text}'s UTF-16 code units as they are, unpaired surrogates too, after a BOM when {@code bom}. */
    private static byte[] utf16(boolean bigEndian, boolean bom, String text) {
        byte[] out = new byte[(bom ? 2 : 0) + 2 * text.length()];
        int at = 0;
        for (int i = bom ? -1 : 0; i < text.length(); i++) {
            char c = i < 0 ? '\uFEFF' : text.charAt(i);
            out[at++] = (byte) (bigEndian ? c >> 8 : c);
            out[at++] = (byte) (bigEndian ? c : c >> 8);
        }
        return out;
    }

    @AfterAll
    void close() {
        fs.close();
    }

    private static String text(Random random) {
        String[] words = {"needle", "Needle", "NEEDLE", "hay", "stack", "kneedle", "需要", "nee dle", "x"};
        StringBuilder out = new StringBuilder();
        int lines = 1 + random.nextInt(12);
        for (int i = 0; i < lines; i++) {
            int n = random.nextInt(5);
            for (int w = 0; w < n; w++) {
                out.append(words[random.nextInt(words.length)]).append(' ');
            }
            out.append(random.nextInt(5) == 0 ? "\r\n" : "\n");
        }
        return out.toString();
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("needle", "", null, true),
                Arguments.of("needle", "", null, false),
                Arguments.of("needle", "", "*.txt", true),
                Arguments.of("needle", "", "*.tmp", true),
                Arguments.of("needle", "repo/sub", null, true),
                Arguments.of("needle", "repo", "!*.md", true),
                Arguments.of("kelvin", "misc", null, false),
                Arguments.of("id ", "misc", null, false),
                Arguments.of("\u0130D ", "misc", null, false),
                Arguments.of("\u0131D ", "misc", null, false),
                Arguments.of("\u00DF", "misc", null, false),
                Arguments.of("需要", "", null, true),
                Arguments.of("", "plain", null, true),
                Arguments.of("needle", "utf16", null, true),
                Arguments.of("", "utf16", null, true));
    }

    private static final int[][] LONG_LINES = {
        {100_000, 40_000}, {150_000, 10_000}, {70_000, 120_000}, {200_000, 30_000}, {66_000, 66_000}, {65_000, 70_000}
    };

    /**
     * Lines longer than ripgrep's 64 KiB buffer with a NUL some way after them: what is reported depends on how the
     * buffer grows and how much each read brings. One file per directory: ripgrep's threads keep a buffer an earlier
     * file grew, so only a file searched alone has one answer.
     */
    private void longLineFixture() throws IOException {
        byte[] needle = "needle here\n".getBytes(StandardCharsets.UTF_8);
        for (int[] shape : LONG_LINES) {
            writeBytes(
                    "long/" + shape[0] + "-" + shape[1] + "/f.txt",
                    concat(
                            needle,
                            ("needle " + "a".repeat(shape[0]) + "\n").getBytes(StandardCharsets.UTF_8),
                            needle,
                            "b".repeat(shape[1]).getBytes(StandardCharsets.UTF_8),
                            "\nneedle late\n".getBytes(StandardCharsets.UTF_8),
                            new byte[] {0},
                            needle));
        }
    }

    @Test
    void long_lines_then_a_nul_report_what_ripgrep_reports() throws Exception {
        for (int[] shape : LONG_LINES) {
            String dir = "long/" + shape[0] + "-" + shape[1];
            TextMatches ours = searchLarge.searchText(new SearchTextQuery("wd", "needle", dir, null, true, 100_000));
            List<String> theirs = new Ripgrep(root, home, LARGE_FILE_BYTES, Duration.ofSeconds(60))
                    .matches("needle", dir, null, true);
            assertEquals(theirs, Ripgrep.lines(ours), dir);
        }
    }

    static Stream<Arguments> utf16Cases() {
        return Stream.of(
                Arguments.of("needle", true),
                Arguments.of("needle", false),
                Arguments.of("NEEDLE", false),
                Arguments.of("kelvin", false),
                Arguments.of("\u00c9", false),
                Arguments.of("\uD83D\uDE00", true),
                Arguments.of("\uFFFD", true),
                Arguments.of("\uFFFE", true),
                Arguments.of("\uFEFF", true),
                Arguments.of("\r", true),
                Arguments.of("", true));
    }

    /** UTF-16 files (several over 8 KiB) with a ceiling of 1 MiB. */
    @ParameterizedTest(name = "{0} in ''utf16'' caseSensitive={1}")
    @MethodSource("utf16Cases")
    void matches_the_same_utf16_lines_as_ripgrep(String query, boolean caseSensitive) throws Exception {
        TextMatches ours =
                searchLarge.searchText(new SearchTextQuery("wd", query, "utf16", null, caseSensitive, 100_000));
        List<String> mine = Ripgrep.lines(ours);
        List<String> theirs = new Ripgrep(root, home, LARGE_FILE_BYTES, Duration.ofSeconds(60))
                .matches(query, "utf16", null, caseSensitive);
        assertTrue(theirs.size() > 0 || query.equals("\uFEFF"), "ripgrep found nothing: the fixture is broken");
        assertEquals(new TreeSet<>(theirs), new TreeSet<>(mine));
        assertEquals(theirs.size(), mine.size(), "duplicates differ");
    }

    @ParameterizedTest(name = "{0} in ''{1}'' glob={2} caseSensitive={3}")
    @MethodSource("cases")
    void matches_the_same_lines_as_ripgrep(String query, String path, String glob, boolean caseSensitive)
            throws Exception {
        TextMatches ours = search.searchText(new SearchTextQuery("wd", query, path, glob, caseSensitive, 100_000));
        List<String> mine = Ripgrep.lines(ours);
        List<String> theirs = new Ripgrep(root, home, MAX_FILE_BYTES, Duration.ofSeconds(60))
                .matches(query, path, glob, caseSensitive);
        assertTrue(theirs.size() > 0 || query.equals("kelvin"), "ripgrep found nothing: the fixture is broken");
        assertEquals(new TreeSet<>(theirs), new TreeSet<>(mine));
        assertEquals(theirs.size(), mine.size(), "duplicates differ");
    }

    /**
     * Issue 24 §11: rg refuses a malformed {@code --glob} (exit 2), which the reference reports as
     * {@code SEARCH_FAILED: content search failed.}; a glob rg accepts is never refused. Before the fix every one of
     * these was silently dropped and the whole tree searched.
     */
    @ParameterizedTest(name = "glob {0}")
    @ValueSource(
            strings = {
                "[z-a]", "[abc", "*.tx[", "foo\\", "\\", "[!]", "[]", "{a,b", "a{b", "{a,{b,c}}", "**/[",
                "a}b", "a]b", "[a-]", "[]a]", "***", "a**b", "#x", "!", "!*.md", "*.{txt", "\\{a"
            })
    void refuses_exactly_the_globs_ripgrep_refuses(String glob) throws Exception {
        int rg = new Ripgrep(root, home, MAX_FILE_BYTES, Duration.ofSeconds(60)).exitCode("needle", "", glob);
        assertTrue(rg == 0 || rg == 1 || rg == 2, "rg exit " + rg);
        SearchTextQuery query = new SearchTextQuery("wd", "needle", "", glob, true, 100_000);
        if (rg == 2) {
            ServerFsException e = assertThrows(ServerFsException.class, () -> search.searchText(query));
            assertEquals(ErrorCode.SEARCH_FAILED, e.code());
            assertTrue(
                    e.agentText().startsWith("SEARCH_FAILED: content search failed: the glob is malformed ("),
                    e.agentText());
        } else {
            assertDoesNotThrow(() -> search.searchText(query));
        }
    }

    private void write(String relative, String content) throws IOException {
        writeBytes(relative, content.getBytes(StandardCharsets.UTF_8));
    }

    private void writeBytes(String relative, byte[] content) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.write(p, content);
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
