package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IgnoreFileTest {

    private static final IgnoreFile RULES = IgnoreFile.parse(String.join(
            "\n",
            "# comment",
            "",
            "*.log",
            "!keep.log",
            "build/",
            "/rooted.txt",
            "docs/*.md",
            "**/gen/**",
            "a/**/z",
            "\\#literal",
            "trailing   ",
            "[ab]?.c"));

    @ParameterizedTest(name = "{0} dir={1} -> {2}")
    @CsvSource({
        "x.log, false, IGNORE",
        "deep/x.log, false, IGNORE",
        "keep.log, false, WHITELIST",
        "deep/keep.log, false, WHITELIST",
        "build, true, IGNORE",
        "build, false, NONE",
        "sub/build, true, IGNORE",
        "rooted.txt, false, IGNORE",
        "sub/rooted.txt, false, NONE",
        "docs/a.md, false, IGNORE",
        "docs/api/a.md, false, NONE",
        "sub/docs/a.md, false, NONE",
        "src/gen/x/y.java, false, IGNORE",
        "gen/y.java, false, IGNORE",
        "a/z, false, IGNORE",
        "a/b/c/z, false, IGNORE",
        "#literal, false, IGNORE",
        "trailing, false, IGNORE",
        "ax.c, false, IGNORE",
        "cx.c, false, NONE",
        "readme.md, false, NONE",
    })
    void applies_gitignore_semantics(String path, boolean directory, IgnoreFile.Verdict expected) {
        assertEquals(expected, RULES.match(path, directory));
    }

    @ParameterizedTest(name = "--glob {0}: {1} -> {2}")
    @CsvSource({
        "*.py, x.py, WHITELIST",
        "*.py, a/b/x.py, WHITELIST",
        "*.py, x.txt, NONE",
        "!*.md, a/x.md, IGNORE",
        "!.git, .git, IGNORE",
        "!.git, sub/.git, IGNORE",
    })
    void overrides_invert_the_meaning_of_a_glob(String glob, String path, IgnoreFile.Verdict expected) {
        assertEquals(expected, IgnoreFile.overrides(java.util.List.of(glob)).match(path, false));
    }

    @ParameterizedTest(name = "{0} vs {1} -> {2}")
    @CsvSource({
        "a**b, axyb, IGNORE",
        "a**b, ax/yb, NONE",
        "**, any/thing, IGNORE",
        "x/**, x/a/b, IGNORE",
        "x/**, x, NONE",
        "**/x/**/y, a/x/b/c/y, IGNORE",
        "**/x/**/y, x/y, IGNORE",
        "a/*/c, a/b/c, IGNORE",
        "a/*/c, a/b/b/c, NONE",
        "[!a]?.txt, bx.txt, IGNORE",
        "[^a]?.txt, ax.txt, NONE",
        "[a-c]*, b.txt, IGNORE",
        "'\\*.c', '*.c', IGNORE",
        "'\\*.c', 'x.c', NONE",
        "ü?.md, ü需.md, IGNORE",
        "[z-a].c, z.c, NONE",
        "[ab, [ab, NONE",
    })
    void double_stars_classes_and_escapes(String glob, String path, IgnoreFile.Verdict expected) {
        assertEquals(expected, IgnoreFile.parse(glob).match(path, false));
    }

    @Test
    void pathological_globs_match_in_linear_time() {
        String name = "a".repeat(60);
        List<String> globs =
                List.of("*?*?*?*?*?*?*?*?z", "*a*a*a*a*a*b", "**/**/**/**/**/**/**/**/z", "*a*a*a*a*a*a*a*a*a*a*a*a*b");
        String deep = String.join("/", java.util.Collections.nCopies(60, "a"));
        // The regex translation this replaced took hours on each of these.
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            for (String glob : globs) {
                IgnoreFile rules = IgnoreFile.parse(glob);
                IgnoreFile overrides = IgnoreFile.overrides(List.of(glob));
                for (int i = 0; i < 1000; i++) {
                    assertEquals(IgnoreFile.Verdict.NONE, rules.match(name, false), glob);
                    assertEquals(IgnoreFile.Verdict.NONE, rules.match(deep, false), glob);
                    assertEquals(IgnoreFile.Verdict.NONE, overrides.match("dir/" + name, false), glob);
                }
            }
        });
    }

    /** Found by GlobRipgrepDifferentialIT: before, each of these was no rule at all. */
    @Test
    void a_glob_left_empty_by_its_prefixes_is_a_rule_as_in_ripgrep() {
        // Unanchored, it matches every path: `--glob !` hides everything, a `!` line whitelists everything.
        assertEquals(
                IgnoreFile.Verdict.IGNORE, IgnoreFile.overrides(List.of("!")).match("a/b", false));
        assertEquals(
                IgnoreFile.Verdict.IGNORE, IgnoreFile.overrides(List.of("! ")).match("a", true));
        assertEquals(IgnoreFile.Verdict.WHITELIST, IgnoreFile.parse("*\n!\n").match("a/b", false));
        // Anchored, it matches nothing, but `--glob /` still whitelists, so every other file is left out.
        IgnoreFile slash = IgnoreFile.overrides(List.of("/"));
        assertEquals(1, slash.whitelistCount());
        assertEquals(IgnoreFile.Verdict.NONE, slash.match("a", false));
        assertEquals(IgnoreFile.Verdict.NONE, IgnoreFile.parse("/\n").match("a", false));
    }

    @ParameterizedTest(name = "--glob {0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "[z-a] | invalid range",
                "[abc | unclosed character class; missing ']'",
                "[] | unclosed character class; missing ']'",
                "foo\\ | dangling '\\'",
                "{a,b | unclosed alternate group; missing '}'",
                "a}{b | unclosed alternate group; missing '}'",
                "{a,{b,c}} | nested alternate groups are not allowed",
            })
    void a_malformed_override_is_refused_with_ripgreps_reason(String glob, String reason) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> IgnoreFile.overrides(List.of(glob)));
        assertEquals(reason, e.getMessage());
    }

    @Test
    void a_malformed_line_of_an_ignore_file_is_skipped_and_the_rest_applies() {
        IgnoreFile rules = IgnoreFile.parse("[z-a]\n{a,b\n*.log\n");
        assertEquals(IgnoreFile.Verdict.IGNORE, rules.match("x.log", false));
        assertEquals(IgnoreFile.Verdict.NONE, rules.match("{a,b", false));
    }

    @Test
    void parsing_and_matching_a_huge_file_stop_when_told() {
        StringBuilder huge = new StringBuilder();
        for (int i = 0; i < 10 * IgnoreFile.CHECK_EVERY; i++) {
            huge.append("*e*e*-never-").append(i).append('\n');
        }
        int[] asked = {0};
        assertThrows(IgnoreFile.Stopped.class, () -> IgnoreFile.parse(huge.toString(), () -> ++asked[0] > 2));
        assertEquals(3, asked[0], "parsing checks every " + IgnoreFile.CHECK_EVERY + " lines");
        IgnoreFile rules = IgnoreFile.parse(huge.toString());
        asked[0] = 0;
        assertThrows(
                IgnoreFile.Stopped.class,
                () -> rules.match(List.of("a-file-name-with-e-in-it.txt"), false, () -> ++asked[0] > 2));
        assertEquals(3, asked[0], "matching checks every " + IgnoreFile.CHECK_EVERY + " rules");
        assertEquals(IgnoreFile.Verdict.NONE, rules.match(List.of("a-file.txt"), false, () -> false));
    }
}
