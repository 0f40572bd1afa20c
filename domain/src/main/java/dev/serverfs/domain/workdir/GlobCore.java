package dev.serverfs.domain.workdir;

import java.util.ArrayList;
import java.util.List;

/**
 * The one glob matcher behind both glob dialects: a sequence of segments, each matching exactly one path segment
 * with literals, {@code ?}, {@code *} and {@code [...]} classes, or {@code **} matching any number of path
 * segments, anchored at both ends. Both levels use the greedy-star two-pointer algorithm, so a match costs at most
 * (glob length × path length) steps and never backtracks (issue 10 §1). A dialect's front-end ({@link Glob} for
 * fnmatch, the gitignore one in the filesystem adapter) parses its syntax into a {@link Builder}. Immutable and
 * thread-safe.
 */
public final class GlobCore {

    /** How a dialect writes a class: which characters negate it, and how its ranges are read. */
    public enum ClassSyntax {
        /**
         * Python {@code fnmatch}: only {@code !} negates; {@code x-y} is a range wherever a {@code -} stands between
         * two members, so {@code a-c-e} is {@code a-c}, {@code -} and {@code e}; a reversed range never matches.
         */
        FNMATCH,
        /**
         * gitignore as ripgrep reads it: {@code !} or {@code ^} negates; members are read left to right, a {@code -}
         * after a member makes a range with the next one, and a further {@code -x} moves that range's end to
         * {@code x} ({@code a-c-e} is {@code a-e}); a range whose end comes before its start is refused.
         */
        GITIGNORE;

        private boolean negates(int c) {
            return c == '!' || (this == GITIGNORE && c == '^');
        }
    }

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

    /** Segments matched without the general algorithm (most deny globs, find patterns and ignore rules). */
    private enum Shape {
        GENERAL,
        EXACT,
        PREFIX,
        SUFFIX,
        ANY
    }

    /** One glob segment: null tokens for {@code **}; {@code literal} is the text around the star of a fast shape. */
    private record Segment(Token[] tokens, Shape shape, String literal) {
        static final Segment ANY_DEPTH = new Segment(null, Shape.GENERAL, "");

        static Segment of(Token[] tokens) {
            int stars = 0;
            boolean literalsAndStars = true;
            StringBuilder text = new StringBuilder();
            for (Token t : tokens) {
                switch (t) {
                    case Star s -> stars++;
                    case Literal l -> text.appendCodePoint(l.codePoint());
                    case AnyChar a -> literalsAndStars = false;
                    case CharClass c -> literalsAndStars = false;
                }
            }
            String literal = text.toString();
            Shape shape;
            // String comparison equals code-point matching only for well-formed text.
            if (!literalsAndStars || stars > 1 || !AgentText.wellFormed(literal)) {
                shape = Shape.GENERAL;
            } else if (stars == 0) {
                shape = Shape.EXACT;
            } else if (tokens.length == 1) {
                shape = Shape.ANY;
            } else if (tokens[0] instanceof Star) {
                shape = Shape.SUFFIX;
            } else if (tokens[tokens.length - 1] instanceof Star) {
                shape = Shape.PREFIX;
            } else {
                shape = Shape.GENERAL;
            }
            return new Segment(tokens, shape, literal);
        }

        boolean anyDepth() {
            return tokens == null;
        }

        boolean matches(String name) {
            return switch (shape) {
                case EXACT -> name.equals(literal);
                case PREFIX -> name.startsWith(literal);
                case SUFFIX -> name.endsWith(literal);
                case ANY -> true;
                case GENERAL -> matchesTokens(tokens, name);
            };
        }
    }

    /** A glob under construction, segment by segment; a front-end adds one segment's tokens, then ends it. */
    public static final class Builder {
        private final List<Segment> segments = new ArrayList<>();
        private final List<Token> current = new ArrayList<>();

        private Builder() {}

        /** One character matched as itself. */
        public Builder literal(int codePoint) {
            current.add(new Literal(codePoint));
            return this;
        }

        /** {@code ?}: any one character. */
        public Builder anyChar() {
            current.add(new AnyChar());
            return this;
        }

        /** {@code *}: any run of characters within the segment; a run of stars is one star. */
        public Builder star() {
            if (current.isEmpty() || !(current.getLast() instanceof Star)) {
                current.add(new Star());
            }
            return this;
        }

        /**
         * Adds the class whose body starts at {@code p[from]} (just after its {@code [}): an optional negation, then
         * a {@code ]} taken as a member when it comes first, then members and {@code a-z} ranges up to the closing
         * {@code ]}.
         *
         * @return the index just after the closing {@code ]}, or -1 when the class is unclosed (nothing is added)
         * @throws IllegalArgumentException for a reversed range when {@code syntax} refuses one
         */
        public int charClass(int[] p, int from, ClassSyntax syntax) {
            int close = from;
            if (close < p.length && syntax.negates(p[close])) {
                close++;
            }
            if (close < p.length && p[close] == ']') {
                close++;
            }
            while (close < p.length && p[close] != ']') {
                close++;
            }
            if (close >= p.length) {
                return -1;
            }
            boolean negated = from < close && syntax.negates(p[from]);
            int start = negated ? from + 1 : from;
            List<int[]> ranges =
                    syntax == ClassSyntax.FNMATCH ? fnmatchRanges(p, start, close) : gitRanges(p, start, close);
            int[] lows = new int[ranges.size()];
            int[] highs = new int[ranges.size()];
            for (int r = 0; r < ranges.size(); r++) {
                lows[r] = ranges.get(r)[0];
                highs[r] = ranges.get(r)[1];
            }
            current.add(new CharClass(negated, lows, highs));
            return close + 1;
        }

        private static List<int[]> fnmatchRanges(int[] p, int start, int close) {
            List<int[]> ranges = new ArrayList<>();
            int k = start;
            while (k < close) {
                if (k + 2 < close && p[k + 1] == '-') {
                    ranges.add(new int[] {p[k], p[k + 2]});
                    k += 3;
                } else {
                    ranges.add(new int[] {p[k], p[k]});
                    k++;
                }
            }
            return ranges;
        }

        private static List<int[]> gitRanges(int[] p, int start, int close) {
            List<int[]> ranges = new ArrayList<>();
            boolean dash = false;
            for (int k = start; k < close; k++) {
                if (dash) {
                    int[] last = ranges.getLast();
                    last[1] = p[k];
                    if (last[1] < last[0]) {
                        throw new IllegalArgumentException("invalid range");
                    }
                    dash = false;
                } else if (p[k] == '-' && k > start) {
                    dash = true;
                } else {
                    ranges.add(new int[] {p[k], p[k]});
                }
            }
            if (dash) {
                ranges.add(new int[] {'-', '-'});
            }
            return ranges;
        }

        /** Ends the current segment: it matches exactly one path segment. */
        public Builder endSegment() {
            segments.add(Segment.of(current.toArray(Token[]::new)));
            current.clear();
            return this;
        }

        /** Ends the current segment as {@code **} (its tokens are dropped): any number of path segments. */
        public Builder endAnyDepthSegment() {
            segments.add(Segment.ANY_DEPTH);
            current.clear();
            return this;
        }

        /** The glob of the ended segments. */
        public GlobCore build() {
            if (!current.isEmpty()) {
                throw new IllegalStateException("the last segment was not ended");
            }
            return new GlobCore(segments.toArray(Segment[]::new));
        }
    }

    private final Segment[] segments;
    /** The one segment of a {@code **}{@code /x} glob, which matches exactly when x matches the last path segment. */
    private final Segment basename;

    private GlobCore(Segment[] segments) {
        this.segments = segments;
        this.basename = segments.length == 2 && segments[0].anyDepth() && !segments[1].anyDepth() ? segments[1] : null;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether {@code name}, taken as one path segment whatever it contains, matches. */
    public boolean matches(String name) {
        if (segments.length == 1 && !segments[0].anyDepth()) {
            return segments[0].matches(name);
        }
        return matches(List.of(name));
    }

    /** Whether the whole path (its segments, in order) matches. */
    public boolean matches(List<String> path) {
        if (basename != null) {
            return !path.isEmpty() && basename.matches(path.getLast());
        }
        int si = 0;
        int gi = 0;
        int starGi = -1;
        int starSi = 0;
        while (si < path.size()) {
            if (gi < segments.length && segments[gi].anyDepth()) {
                starGi = gi++;
                starSi = si;
            } else if (gi < segments.length && segments[gi].matches(path.get(si))) {
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

    private static boolean matchesTokens(Token[] tokens, String name) {
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
