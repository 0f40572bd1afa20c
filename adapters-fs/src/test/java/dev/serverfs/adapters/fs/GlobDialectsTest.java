package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.testing.Fuzz;
import dev.serverfs.domain.workdir.Glob;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two front-ends of the one glob core against each other: fnmatch ({@link Glob}: deny rules, {@code find_files})
 * and gitignore ({@link GitGlob}: ignore files, the {@code search_text} glob) read a one-segment glob without
 * {@code /}, {@code \} or {@code [^} alike, so on a name they must agree wherever gitignore accepts the glob. Where
 * the dialects differ by definition, the difference is pinned below. {@code GlobRipgrepDifferentialIT} holds both
 * against {@code rg}.
 */
class GlobDialectsTest {

    record Case(String glob, String name) {}

    @Test
    void fnmatch_and_gitignore_agree_on_one_segment() {
        int[] outcomes = new int[3];
        Fuzz.forAll(
                "fnmatch and gitignore front-ends agree on a name",
                Fuzz.seed(),
                20_000,
                f -> {
                    String name = GlobInputs.name(f, false);
                    List<String> names = f.chance(0.7) ? List.of(name) : List.of();
                    return new Case(GlobInputs.glob(f, GlobInputs.Syntax.COMMON, true, false, names), name);
                },
                c -> {
                    GitGlob git = GitGlob.compile(c.glob());
                    boolean fnmatch = Glob.compile(c.glob()).matches(c.name());
                    if (GlobInputs.hasRangeChain(c.glob())) {
                        // x-y-z in a class: a-c-e is a-c, - and e in fnmatch, a-e in gitignore (pinned below).
                        outcomes[2]++;
                        return;
                    }
                    if (git == null) {
                        // Unclosed [, reversed range or malformed {group}: gitignore refuses, fnmatch reads on.
                        outcomes[2]++;
                        return;
                    }
                    assertEquals(fnmatch, git.matches(List.of(c.name())), "fnmatch and gitignore differ");
                    outcomes[fnmatch ? 1 : 0]++;
                });
        // The generator must exercise both answers, not only refusals.
        System.out.println("fuzz: misses, matches, refused: " + List.of(outcomes[0], outcomes[1], outcomes[2]));
        int tries = outcomes[0] + outcomes[1] + outcomes[2];
        assertTrue(outcomes[0] > tries / 10 && outcomes[1] > tries / 10, "too few misses or matches");
    }

    @Test
    void where_the_dialects_differ_by_definition() {
        // fnmatch's * and ? cross '/'; gitignore's stay in one segment.
        assertTrue(Glob.compile("a*b").matches("a/x/b"));
        assertFalse(GitGlob.strict("a*b").matches(List.of("a", "x", "b")));
        assertTrue(Glob.compile("a?b").matches("a/b"));
        // gitignore negates a class with ^ as well as !; fnmatch takes ^ as a member.
        assertTrue(Glob.compile("[^a]").matches("a"));
        assertFalse(GitGlob.strict("[^a]").matches(List.of("a")));
        // gitignore escapes with \; fnmatch takes it literally.
        assertTrue(Glob.compile("\\*").matches("\\x"));
        assertTrue(GitGlob.strict("\\*").matches(List.of("*")));
        assertFalse(GitGlob.strict("\\*").matches(List.of("\\x")));
        // An unclosed [ is literal in fnmatch and refused by gitignore; a reversed range never matches / is refused.
        assertTrue(Glob.compile("a[").matches("a["));
        assertNull(GitGlob.compile("a["));
        assertFalse(Glob.compile("[b-a]").matches("a"));
        assertNull(GitGlob.compile("[b-a]"));
        // A range followed by -x: fnmatch reads a-c, - and e; gitignore, like rg, a-e (and refuses c-d-a).
        assertFalse(Glob.compile("x[a-c-e]").matches("xd"));
        assertTrue(Glob.compile("x[a-c-e]").matches("x-"));
        assertTrue(GitGlob.strict("x[a-c-e]").matches(List.of("xd")));
        assertFalse(GitGlob.strict("x[a-c-e]").matches(List.of("x-")));
        assertTrue(GitGlob.strict("x[--0-5]").matches(List.of("x3")));
        assertTrue(Glob.compile("x[c-d-a]").matches("xa"));
        assertNull(GitGlob.compile("x[c-d-a]"));
        // Both take a well-formed {group} literally (rg reads it as alternatives: see GlobRipgrepDifferentialIT).
        assertTrue(Glob.compile("{a,b}").matches("{a,b}"));
        assertTrue(GitGlob.strict("{a,b}").matches(List.of("{a,b}")));
        assertNull(GitGlob.compile("{a"));
        assertTrue(Glob.compile("{a").matches("{a"));
    }
}
