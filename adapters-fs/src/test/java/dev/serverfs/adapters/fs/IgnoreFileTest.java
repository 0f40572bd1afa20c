package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
