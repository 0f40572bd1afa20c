package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.serverfs.application.port.in.SearchTextUseCase.Match;
import dev.serverfs.application.port.in.SearchTextUseCase.TextMatches;
import dev.serverfs.domain.file.LineExcerpt;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code rg} run with the reference's argv (contract reference §2.5), its matches in the shape the parity
 * tests compare: {@code path:line:text}, the text cut as {@code search_text} cuts a long line. Shared by the
 * parity tests on the generated fixture and on the JDK sources.
 */
final class Ripgrep {
    private final Path root;
    private final Path home;
    private final long maxFileBytes;
    private final Duration wait;

    /** {@code home} is an empty directory: rg must read no configuration of the user running the tests. */
    Ripgrep(Path root, Path home, long maxFileBytes, Duration wait) {
        this.root = root;
        this.home = home;
        this.maxFileBytes = maxFileBytes;
        this.wait = wait;
    }

    /** Our answer in the same shape. */
    static List<String> lines(TextMatches ours) {
        List<String> mine = new ArrayList<>();
        for (Match m : ours.matches()) {
            mine.add(m.path() + ":" + m.line() + ":" + m.text());
        }
        return mine;
    }

    /** The reference's argv for this search, run in the search root with no user configuration. */
    private ProcessBuilder command(String query, String path, String glob, boolean caseSensitive) {
        List<String> argv = new ArrayList<>(List.of(
                "rg",
                "--fixed-strings",
                "--json",
                "--no-messages",
                "--hidden",
                "--max-filesize",
                Long.toString(maxFileBytes)));
        if (!caseSensitive) {
            argv.add("--ignore-case");
        }
        if (glob != null) {
            argv.add("--glob");
            argv.add(glob);
        }
        argv.addAll(List.of(
                "--glob",
                "!.git",
                "--glob",
                "!.hg",
                "--glob",
                "!.svn",
                "--glob",
                "!.serverfs-tmp-*",
                "--",
                query,
                "."));
        ProcessBuilder pb =
                new ProcessBuilder(argv).directory(root.resolve(path).toFile());
        pb.environment().remove("RIPGREP_CONFIG_PATH");
        pb.environment().put("HOME", home.toString());
        pb.environment().put("XDG_CONFIG_HOME", home.toString());
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        return pb;
    }

    private static Process start(ProcessBuilder pb) throws IOException {
        try {
            return pb.start();
        } catch (IOException e) {
            fail("ripgrep ('rg') is not installed: install it (Debian: apt-get install -y ripgrep) to run this test");
            throw e;
        }
    }

    /** rg's exit code for this search (its output discarded): 0 or 1 when it ran, 2 when it refused its arguments. */
    int exitCode(String query, String path, String glob) throws Exception {
        ProcessBuilder pb = command(query, path, glob, true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process rg = start(pb);
        assertTrue(rg.waitFor(wait.toSeconds(), TimeUnit.SECONDS), "rg did not finish");
        return rg.exitValue();
    }

    List<String> matches(String query, String path, String glob, boolean caseSensitive) throws Exception {
        Process rg = start(command(query, path, glob, caseSensitive));
        List<String> out = new ArrayList<>();
        String prefix = path.isEmpty() ? "" : path + "/";
        try (var lines = rg.inputReader(StandardCharsets.UTF_8)) {
            String line;
            while ((line = lines.readLine()) != null) {
                @SuppressWarnings("unchecked")
                Map<String, Object> event = (Map<String, Object>) MiniJson.parse(line);
                if (!"match".equals(event.get("type"))) {
                    continue;
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> data = (Map<String, Object>) event.get("data");
                @SuppressWarnings("unchecked")
                Map<String, Object> p = (Map<String, Object>) data.get("path");
                @SuppressWarnings("unchecked")
                Map<String, Object> l = (Map<String, Object>) data.get("lines");
                if (p.get("text") == null || l.get("text") == null) {
                    continue;
                }
                String file = ((String) p.get("text")).replaceFirst("^\\./", "");
                String text = (String) l.get("text");
                if (text.endsWith("\n")) {
                    text = text.substring(0, text.length() - 1);
                }
                out.add(prefix + file + ":" + ((Double) data.get("line_number")).longValue() + ":"
                        + excerpt(text, data));
            }
        }
        assertTrue(rg.waitFor(wait.toSeconds(), TimeUnit.SECONDS), "rg did not finish");
        assertTrue(rg.exitValue() == 0 || rg.exitValue() == 1, "rg failed with exit " + rg.exitValue());
        return out;
    }

    /** The line as search_text returns it: whole, or cut around ripgrep's first match (byte offsets). */
    private static String excerpt(String text, Map<String, Object> data) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= LineExcerpt.MAX_BYTES) {
            return text;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> first = ((List<Map<String, Object>>) data.get("submatches")).getFirst();
        int start = ((Double) first.get("start")).intValue();
        int end = ((Double) first.get("end")).intValue();
        int charStart = new String(utf8, 0, start, StandardCharsets.UTF_8).length();
        int charEnd = new String(utf8, 0, end, StandardCharsets.UTF_8).length();
        return LineExcerpt.of(text, charStart, charEnd, false).text();
    }
}
