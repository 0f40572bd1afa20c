package dev.serverfs.domain.workdir;

import java.util.ArrayList;
import java.util.List;

/**
 * A case-sensitive shell glob with Python {@code fnmatch.fnmatchcase} semantics (contract reference §2.0,
 * §2.3): {@code *} matches any run of characters including {@code /}, {@code ?} one character, {@code [...]}
 * and {@code [!...]} a set with ranges; an unclosed {@code [} is literal and a reversed range never matches.
 * Immutable and thread-safe.
 */
public final class Glob {

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

    /** Shapes matched without the general algorithm (most deny globs and find patterns are one of these). */
    private enum Shape {
        GENERAL,
        EXACT,
        PREFIX,
        SUFFIX,
        ANY
    }

    private final String pattern;
    private final Token[] tokens;
    private final Shape shape;
    private final String literal;

    private Glob(String pattern, Token[] tokens) {
        this.pattern = pattern;
        this.tokens = tokens;
        int stars = 0;
        boolean onlyLiteralsAndStars = true;
        StringBuilder text = new StringBuilder();
        for (Token t : tokens) {
            switch (t) {
                case Star s -> stars++;
                case Literal l -> text.appendCodePoint(l.codePoint());
                case AnyChar a -> onlyLiteralsAndStars = false;
                case CharClass c -> onlyLiteralsAndStars = false;
            }
        }
        this.literal = text.toString();
        if (!onlyLiteralsAndStars || stars > 1) {
            this.shape = Shape.GENERAL;
        } else if (stars == 0) {
            this.shape = Shape.EXACT;
        } else if (tokens.length == 1) {
            this.shape = Shape.ANY;
        } else if (tokens[0] instanceof Star) {
            this.shape = Shape.SUFFIX;
        } else if (tokens[tokens.length - 1] instanceof Star) {
            this.shape = Shape.PREFIX;
        } else {
            this.shape = Shape.GENERAL;
        }
    }

    public static Glob compile(String pattern) {
        int[] p = pattern.codePoints().toArray();
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < p.length) {
            int c = p[i++];
            if (c == '*') {
                if (out.isEmpty() || !(out.getLast() instanceof Star)) {
                    out.add(new Star());
                }
            } else if (c == '?') {
                out.add(new AnyChar());
            } else if (c == '[') {
                int j = i;
                if (j < p.length && p[j] == '!') {
                    j++;
                }
                if (j < p.length && p[j] == ']') {
                    j++;
                }
                while (j < p.length && p[j] != ']') {
                    j++;
                }
                if (j >= p.length) {
                    out.add(new Literal('['));
                } else {
                    out.add(charClass(p, i, j));
                    i = j + 1;
                }
            } else {
                out.add(new Literal(c));
            }
        }
        return new Glob(pattern, out.toArray(Token[]::new));
    }

    private static CharClass charClass(int[] p, int from, int to) {
        boolean negated = from < to && p[from] == '!';
        int k = negated ? from + 1 : from;
        List<int[]> ranges = new ArrayList<>();
        while (k < to) {
            if (k + 2 < to && p[k + 1] == '-') {
                ranges.add(new int[] {p[k], p[k + 2]});
                k += 3;
            } else {
                ranges.add(new int[] {p[k], p[k]});
                k++;
            }
        }
        if (negated && ranges.isEmpty()) {
            // fnmatch turns "[!]" into "any character".
            return new CharClass(true, new int[0], new int[0]);
        }
        int[] lows = new int[ranges.size()];
        int[] highs = new int[ranges.size()];
        for (int r = 0; r < ranges.size(); r++) {
            lows[r] = ranges.get(r)[0];
            highs[r] = ranges.get(r)[1];
        }
        return new CharClass(negated, lows, highs);
    }

    public boolean matches(String text) {
        return switch (shape) {
            case EXACT -> text.equals(literal);
            case PREFIX -> text.startsWith(literal);
            case SUFFIX -> text.endsWith(literal);
            case ANY -> true;
            case GENERAL -> matchesGeneral(text);
        };
    }

    private boolean matchesGeneral(String text) {
        int[] s = text.codePoints().toArray();
        int si = 0;
        int ti = 0;
        int starTi = -1;
        int starSi = 0;
        while (si < s.length) {
            if (ti < tokens.length && !(tokens[ti] instanceof Star) && single(tokens[ti], s[si])) {
                si++;
                ti++;
            } else if (ti < tokens.length && tokens[ti] instanceof Star) {
                starTi = ti++;
                starSi = si;
            } else if (starTi >= 0) {
                ti = starTi + 1;
                si = ++starSi;
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

    public String pattern() {
        return pattern;
    }

    @Override
    public String toString() {
        return pattern;
    }
}
