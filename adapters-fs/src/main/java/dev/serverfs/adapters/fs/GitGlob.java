package dev.serverfs.adapters.fs;

import dev.serverfs.domain.workdir.GlobCore;
import java.util.List;

/**
 * A gitignore-style glob over a {@code /}-separated relative path: the gitignore front-end of {@link GlobCore},
 * which matches without backtracking (issue 10 §1: a regex translation let {@code *a*a*a*a*a*b} run for hours). A
 * segment that is exactly {@code **} matches any number of path segments, any other segment matches exactly one
 * path segment, in which {@code *} and {@code ?} never cross {@code /}. {@code \x} is a literal {@code x};
 * {@code [...]}, {@code [!...]} and {@code [^...]} are sets with ranges. Immutable and thread-safe.
 */
final class GitGlob {

    private final GlobCore core;

    private GitGlob(GlobCore core) {
        this.core = core;
    }

    /** The compiled glob, or null when it is malformed (see {@link #strict}). */
    static GitGlob compile(String glob) {
        try {
            return strict(glob);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The compiled glob.
     *
     * @throws IllegalArgumentException when ripgrep would refuse it: a dangling {@code \}, an unclosed {@code [} or
     *     a reversed range in a class, an unclosed or nested <code>{</code> group (the message says which, in
     *     ripgrep's words, and never repeats the glob)
     */
    static GitGlob strict(String glob) {
        GlobCore.Builder out = GlobCore.builder();
        boolean onlyStars = true;
        int starsInARow = 0;
        int openGroups = 0;
        int[] p = glob.codePoints().toArray();
        int i = 0;
        while (i <= p.length) {
            if (i == p.length || p[i] == '/') {
                if (onlyStars && starsInARow == 2) {
                    out.endAnyDepthSegment();
                } else {
                    out.endSegment();
                }
                onlyStars = true;
                starsInARow = 0;
                i++;
                continue;
            }
            int c = p[i++];
            if (c == '*') {
                starsInARow++;
                out.star();
                continue;
            }
            onlyStars = false;
            if (c == '?') {
                out.anyChar();
            } else if (c == '\\') {
                if (i >= p.length) {
                    throw new IllegalArgumentException("dangling '\\'");
                }
                int escaped = p[i++];
                if (escaped == '/') {
                    // An escaped separator is still a separator: path segments never contain '/'.
                    i--;
                    continue;
                }
                out.literal(escaped);
            } else if (c == '[') {
                i = out.charClass(p, i, GlobCore.ClassSyntax.GITIGNORE);
                if (i < 0) {
                    throw new IllegalArgumentException("unclosed character class; missing ']'");
                }
            } else {
                // Groups are matched literally, but ripgrep refuses the same malformed ones (issue 24 §11).
                if (c == '{' && ++openGroups > 1) {
                    throw new IllegalArgumentException("nested alternate groups are not allowed");
                }
                if (c == '}' && openGroups > 0) {
                    openGroups--;
                }
                out.literal(c);
            }
        }
        if (openGroups > 0) {
            throw new IllegalArgumentException("unclosed alternate group; missing '}'");
        }
        return new GitGlob(out.build());
    }

    /** Whether the whole path (its segments, in order) matches. */
    boolean matches(List<String> path) {
        return core.matches(path);
    }
}
