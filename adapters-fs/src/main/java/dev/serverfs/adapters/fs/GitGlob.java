package dev.serverfs.adapters.fs;

import java.util.ArrayList;
import java.util.List;

/**
 * A gitignore-style glob over a {@code /}-separated relative path, matched without backtracking (issue 10 §1: a
 * regex translation let {@code *a*a*a*a*a*b} run for hours). The glob is split into segments: a segment that is
 * exactly {@code **} matches any number of path segments, any other segment matches exactly one path segment, in
 * which {@code *} and {@code ?} never cross {@code /}. Both levels use the greedy-star two-pointer algorithm, so a
 * match costs at most (glob length × path length) steps. {@code \x} is a literal {@code x}; {@code [...]},
 * {@code [!...]} and {@code [^...]} are sets with ranges. Immutable and thread-safe.
 */
final class GitGlob {

    private sealed interface Token permits Literal, AnyChar, Star, CharClass {}

    private record Literal(int codePoint) implements Token {}

    private record AnyChar() implements Token {}

    private record Star() implements Token {}

    private record CharClass(boolean negated, int[] lows, int[] highs) implements Token {
        boolean contains(int cp) {
            boolean in = false;
            for (int i = 0; i < lows.length && !in; i++) {
                in = cp >= lows[i] && cp <= highs[i];
            }
            return in != negated;
        }
    }

    /** One glob segment: null tokens for {@code **}. */
    private record Segment(Token[] tokens) {
        boolean anyDepth() {
            return tokens == null;
        }
    }

    private final Segment[] segments;
    /** The one segment of a {@code **}{@code /x} glob (which matches exactly when x matches the last path segment). */
    private final Token[] basename;

    private GitGlob(Segment[] segments) {
        this.segments = segments;
        this.basename =
                segments.length == 2 && segments[0].anyDepth() && !segments[1].anyDepth() ? segments[1].tokens() : null;
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
        List<Segment> out = new ArrayList<>();
        List<Token> current = new ArrayList<>();
        boolean currentIsDoubleStar = true;
        int starsInARow = 0;
        int openGroups = 0;
        int[] p = glob.codePoints().toArray();
        int i = 0;
        while (i <= p.length) {
            if (i == p.length || p[i] == '/') {
                boolean doubleStar = currentIsDoubleStar && starsInARow == 2;
                out.add(new Segment(doubleStar ? null : current.toArray(Token[]::new)));
                current = new ArrayList<>();
                currentIsDoubleStar = true;
                starsInARow = 0;
                i++;
                continue;
            }
            int c = p[i++];
            if (c == '*') {
                starsInARow++;
                if (current.isEmpty() || !(current.getLast() instanceof Star)) {
                    current.add(new Star());
                }
                continue;
            }
            currentIsDoubleStar = false;
            if (c == '?') {
                current.add(new AnyChar());
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
                current.add(new Literal(escaped));
            } else if (c == '[') {
                int close = classEnd(p, i);
                if (close < 0) {
                    throw new IllegalArgumentException("unclosed character class; missing ']'");
                }
                current.add(charClass(p, i, close));
                i = close + 1;
            } else {
                // Groups are matched literally, but ripgrep refuses the same malformed ones (issue 24 §11).
                if (c == '{' && ++openGroups > 1) {
                    throw new IllegalArgumentException("nested alternate groups are not allowed");
                }
                if (c == '}' && openGroups > 0) {
                    openGroups--;
                }
                current.add(new Literal(c));
            }
        }
        if (openGroups > 0) {
            throw new IllegalArgumentException("unclosed alternate group; missing '}'");
        }
        return new GitGlob(out.toArray(Segment[]::new));
    }

    /** Index of the {@code ]} closing a class whose body starts at {@code from}, or -1. */
    private static int classEnd(int[] p, int from) {
        int j = from;
        if (j < p.length && (p[j] == '!' || p[j] == '^')) {
            j++;
        }
        if (j < p.length && p[j] == ']') {
            j++;
        }
        while (j < p.length && p[j] != ']') {
            j++;
        }
        return j < p.length ? j : -1;
    }

    /** The class {@code p[from, to)}; a reversed range is refused. */
    private static CharClass charClass(int[] p, int from, int to) {
        boolean negated = from < to && (p[from] == '!' || p[from] == '^');
        int k = negated ? from + 1 : from;
        List<int[]> ranges = new ArrayList<>();
        while (k < to) {
            if (k + 2 < to && p[k + 1] == '-') {
                if (p[k] > p[k + 2]) {
                    throw new IllegalArgumentException("invalid range");
                }
                ranges.add(new int[] {p[k], p[k + 2]});
                k += 3;
            } else {
                ranges.add(new int[] {p[k], p[k]});
                k++;
            }
        }
        int[] lows = new int[ranges.size()];
        int[] highs = new int[ranges.size()];
        for (int r = 0; r < ranges.size(); r++) {
            lows[r] = ranges.get(r)[0];
            highs[r] = ranges.get(r)[1];
        }
        return new CharClass(negated, lows, highs);
    }

    /** Whether the whole path (its segments, in order) matches. */
    boolean matches(List<String> path) {
        if (basename != null) {
            return !path.isEmpty() && matchesSegment(basename, path.getLast());
        }
        int si = 0;
        int gi = 0;
        int starGi = -1;
        int starSi = 0;
        while (si < path.size()) {
            if (gi < segments.length && segments[gi].anyDepth()) {
                starGi = gi++;
                starSi = si;
            } else if (gi < segments.length && matchesSegment(segments[gi].tokens(), path.get(si))) {
                gi++;
                si++;
            } else if (starGi >= 0) {
                gi = starGi + 1;
                si = ++starSi;
            } else {
                return false;
            }
        }
        while (gi < segments.length && segments[gi].anyDepth()) {
            gi++;
        }
        return gi == segments.length;
    }

    private static boolean matchesSegment(Token[] tokens, String name) {
        int si = 0;
        int ti = 0;
        int starTi = -1;
        int starSi = 0;
        int n = name.length();
        while (si < n) {
            int cp = name.codePointAt(si);
            if (ti < tokens.length && tokens[ti] instanceof Star) {
                starTi = ti++;
                starSi = si;
            } else if (ti < tokens.length && single(tokens[ti], cp)) {
                ti++;
                si += Character.charCount(cp);
            } else if (starTi >= 0) {
                ti = starTi + 1;
                starSi += Character.charCount(name.codePointAt(starSi));
                si = starSi;
            } else {
                return false;
            }
        }
        while (ti < tokens.length && tokens[ti] instanceof Star) {
            ti++;
        }
        return ti == tokens.length;
    }

    private static boolean single(Token token, int cp) {
        return switch (token) {
            case Literal l -> l.codePoint() == cp;
            case AnyChar a -> true;
            case CharClass c -> c.contains(cp);
            case Star s -> false;
        };
    }
}
