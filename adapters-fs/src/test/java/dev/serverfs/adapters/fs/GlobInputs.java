package dev.serverfs.adapters.fs;

import dev.serverfs.application.testing.Fuzz;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Random path segments and globs for the glob differential tests, over a small alphabet rich in the characters
 * globs give a meaning to, so that generated globs often match generated names. A glob is either drawn freely or
 * derived from a name or path (each character kept, escaped, or replaced by {@code ?}, {@code *} or a class), so
 * that matches are as frequent as misses.
 */
final class GlobInputs {

    /** Characters of names: mostly plain, some that globs or ignore files read specially. */
    private static final String[] NAME_CHARS = {
        "a",
        "a",
        "a",
        "b",
        "b",
        "c",
        ".",
        ".",
        "-",
        "_",
        "[",
        "]",
        "!",
        "^",
        "*",
        "?",
        "{",
        "}",
        ",",
        "#",
        " ",
        "é",
        "\\",
        "\uD83D\uDE00"
    };

    private static final Pattern RANGE_CHAIN = Pattern.compile(".-[^\\]]-[^\\]]");

    /** Which syntax a generated glob may use. */
    enum Syntax {
        /**
         * What both dialects read alike on one segment: literals, {@code *}, {@code ?}, {@code [...]} and
         * {@code [!...]} classes; no {@code /}, no {@code \}, no {@code ^} in a class.
         */
        COMMON,
        /** Everything gitignore has: segments, {@code **}, {@code \} escapes, {@code [^...]}. */
        GITIGNORE
    }

    private GlobInputs() {}

    /**
     * A file or directory name: 1 to 6 characters, never {@code .} or {@code ..}; for {@code rg}, ASCII only and
     * never ending in {@code .}, where {@code rg} 13 differs (see {@code GlobRipgrepDifferentialIT}).
     */
    static String name(Fuzz f, boolean forRg) {
        StringBuilder out = new StringBuilder();
        int length = f.between(1, 6);
        while (out.codePointCount(0, out.length()) < length) {
            String c = f.pick(NAME_CHARS);
            out.append(forRg && c.charAt(0) > 0x7e ? "b" : c);
        }
        String name = out.toString();
        return name.endsWith(".") && (forRg || name.equals(".") || name.equals("..")) ? name + "a" : name;
    }

    /**
     * A glob of {@code syntax}: derived from one of {@code paths} half the time, else drawn freely; groups only if
     * {@code braces}; for {@code rg}, ASCII only, without negated classes or ranges across {@code /}.
     */
    static String glob(Fuzz f, Syntax syntax, boolean braces, boolean forRg, List<String> paths) {
        String glob;
        if (!paths.isEmpty() && f.chance(0.5)) {
            glob = derived(f, syntax, f.pick(paths.toArray(String[]::new)));
        } else {
            StringBuilder out = new StringBuilder();
            int segments = syntax == Syntax.GITIGNORE ? f.between(1, 3) : 1;
            for (int s = 0; s < segments; s++) {
                if (s > 0) {
                    out.append('/');
                }
                if (syntax == Syntax.GITIGNORE && f.chance(0.15)) {
                    out.append("**");
                    continue;
                }
                int atoms = f.between(1, 4);
                for (int a = 0; a < atoms; a++) {
                    out.append(atom(f, syntax));
                }
            }
            glob = out.toString();
        }
        if (!braces) {
            glob = glob.replaceAll("[{},]", "a");
        }
        if (forRg) {
            // Where rg differs by its own bugs (see GlobRipgrepDifferentialIT): non-ASCII, negated classes and
            // ranges holding '/' (rg's classes match it).
            glob = glob.replaceAll("[^\\x00-\\x7e]", "b").replaceAll("\\[[!^]+", "[");
            // A range from below '/' to above it loses its start, until none is left.
            for (String before = ""; !before.equals(glob); ) {
                before = glob;
                glob = glob.replaceAll("[ -.]-(?=[0-~])", "a-");
            }
            if (syntax == Syntax.GITIGNORE) {
                glob = noClassAcrossSlash(glob);
            }
        }
        // A class opened as [^ negates in gitignore only.
        return syntax == Syntax.COMMON ? glob.replace("[^", "[!") : glob;
    }

    /** Whether a class may hold a range followed by {@code -x}, which fnmatch and gitignore (and rg) read differently. */
    static boolean hasRangeChain(String glob) {
        return RANGE_CHAIN.matcher(glob).find();
    }

    /** The glob with every {@code [} whose class would hold a {@code /} escaped (rg's classes match {@code /}). */
    private static String noClassAcrossSlash(String glob) {
        StringBuilder out = new StringBuilder();
        int n = glob.length();
        int i = 0;
        while (i < n) {
            char c = glob.charAt(i);
            if (c == '\\' && i + 1 < n) {
                out.append(glob, i, i + 2);
                i += 2;
                continue;
            }
            if (c == '[') {
                int j = i + 1;
                if (j < n && (glob.charAt(j) == '!' || glob.charAt(j) == '^')) {
                    j++;
                }
                if (j < n && glob.charAt(j) == ']') {
                    j++;
                }
                while (j < n && glob.charAt(j) != ']') {
                    j++;
                }
                if (j < n && glob.substring(i, j).indexOf('/') < 0) {
                    out.append(glob, i, j + 1);
                    i = j + 1;
                    continue;
                }
                if (j < n) {
                    out.append('\\');
                }
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    /** {@code path} ({@code /}-separated in {@link Syntax#GITIGNORE}, one name otherwise) turned into a glob. */
    private static String derived(Fuzz f, Syntax syntax, String path) {
        String[] parts = path.split("/", -1);
        if (syntax == Syntax.COMMON) {
            return segment(f, syntax, parts[parts.length - 1]);
        }
        StringBuilder out = new StringBuilder();
        int from = f.chance(0.5) ? 0 : f.between(0, parts.length - 1);
        if (f.chance(0.2)) {
            out.append("**/");
        } else if (f.chance(0.2)) {
            out.append('/');
        }
        for (int i = from; i < parts.length; i++) {
            if (i > from) {
                out.append('/');
            }
            out.append(f.chance(0.1) ? "**" : segment(f, syntax, parts[i]));
        }
        if (f.chance(0.1)) {
            out.append("/**");
        }
        return out.toString();
    }

    private static String segment(Fuzz f, Syntax syntax, String name) {
        StringBuilder out = new StringBuilder();
        int[] cps = name.codePoints().toArray();
        for (int i = 0; i < cps.length; i++) {
            int c = cps[i];
            double r = f.chance(0.5) ? 1 : f.between(0, 99) / 100.0;
            if (r < 0.12) {
                out.append('?');
            } else if (r < 0.22) {
                out.append('*');
                i += f.between(0, 2);
            } else if (r < 0.32) {
                out.append(classFor(f, c));
            } else {
                out.append(literal(syntax, c));
            }
        }
        return out.toString();
    }

    /** A class holding {@code c}, or (a third of the time) a negated one without it. */
    private static String classFor(Fuzz f, int c) {
        String ch = Character.toString(c);
        if (f.chance(0.33) && c != 'b' && c != ']') {
            return "[!b]";
        }
        if (c == ']') {
            return "[]b]";
        }
        if (c == '-') {
            return "[b-]";
        }
        if (c >= 'a' && c <= 'c') {
            return "[a-c]";
        }
        return c == '!' || c == '^' ? "[b" + ch + "]" : "[" + ch + "b]";
    }

    private static String literal(Syntax syntax, int c) {
        String ch = Character.toString(c);
        if (syntax == Syntax.GITIGNORE) {
            return "*?[\\{}!#".indexOf(c) >= 0 ? "\\" + ch : ch;
        }
        if (c == '\\') {
            return "?";
        }
        return "*?[".indexOf(c) >= 0 ? "[" + ch + "]" : ch;
    }

    private static String atom(Fuzz f, Syntax syntax) {
        int kind = f.between(0, syntax == Syntax.GITIGNORE ? 9 : 7);
        return switch (kind) {
            case 0, 1, 2 -> {
                String c = f.pick(NAME_CHARS);
                yield c.equals("\\") && syntax == Syntax.COMMON ? "a" : c;
            }
            case 3 -> "*";
            case 4 -> "?";
            case 5, 6 -> randomClass(f, syntax);
            case 7 -> "**";
            default -> f.chance(0.1) ? "\\" : "\\" + f.pick(NAME_CHARS);
        };
    }

    private static String randomClass(Fuzz f, Syntax syntax) {
        StringBuilder out = new StringBuilder("[");
        if (f.chance(0.3)) {
            out.append(syntax == Syntax.GITIGNORE && f.chance(0.5) ? "^" : "!");
        }
        if (f.chance(0.15)) {
            out.append(']');
        }
        int members = f.between(1, 3);
        for (int m = 0; m < members; m++) {
            if (f.chance(0.3)) {
                out.append(f.pick("a-c", "b-a", "--0", ".-b", "a-"));
            } else {
                String c = f.pick("a", "b", "c", ".", "!", "-", "*", "?", "[", "é");
                out.append(c);
            }
        }
        if (!f.chance(0.08)) {
            out.append(']');
        }
        return out.toString();
    }
}
