package dev.serverfs.domain.workdir;

/**
 * A case-sensitive shell glob with Python {@code fnmatch.fnmatchcase} semantics (contract reference §2.0,
 * §2.3): {@code *} matches any run of characters including {@code /}, {@code ?} one character, {@code [...]}
 * and {@code [!...]} a set with ranges; an unclosed {@code [} is literal and a reversed range never matches;
 * <code>{a,b}</code> is literal, as in fnmatch. The fnmatch front-end of {@link GlobCore}: the whole text is one
 * segment. Immutable and thread-safe.
 */
public final class Glob {

    private final String pattern;
    private final GlobCore core;

    private Glob(String pattern, GlobCore core) {
        this.pattern = pattern;
        this.core = core;
    }

    public static Glob compile(String pattern) {
        int[] p = pattern.codePoints().toArray();
        GlobCore.Builder glob = GlobCore.builder();
        int i = 0;
        while (i < p.length) {
            int c = p[i++];
            if (c == '*') {
                glob.star();
            } else if (c == '?') {
                glob.anyChar();
            } else if (c == '[') {
                int next = glob.charClass(p, i, GlobCore.ClassSyntax.FNMATCH);
                if (next < 0) {
                    glob.literal('[');
                } else {
                    i = next;
                }
            } else {
                glob.literal(c);
            }
        }
        return new Glob(pattern, glob.endSegment().build());
    }

    public boolean matches(String text) {
        return core.matches(text);
    }

    public String pattern() {
        return pattern;
    }

    @Override
    public String toString() {
        return pattern;
    }
}
