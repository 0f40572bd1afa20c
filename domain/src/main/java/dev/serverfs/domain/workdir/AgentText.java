package dev.serverfs.domain.workdir;

/**
 * Rules for strings an agent sends that must reach the kernel or a matcher unchanged (issue 10 §8): a Java string
 * may hold an unpaired UTF-16 surrogate, which has no UTF-8 form and would silently become {@code ?}, so the policy
 * would judge one name and the kernel open another. Such strings are refused before any policy runs.
 */
public final class AgentText {

    /**
     * The most of an agent's text a message repeats (PATH_MAX): a longer path names no file, and a megabyte of it
     * would come back in the answer.
     */
    public static final int MAX_ECHOED_CHARS = 4096;

    private AgentText() {}

    /** Whether {@code text} is valid Unicode: every surrogate is part of a high-low pair. */
    public static boolean wellFormed(String text) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code text} safe to echo in a one-line message: control characters as {@code ?}, unpaired surrogates as
     * U+FFFD (a JSON encoder may refuse to write them), and cut with {@code …} after {@value #MAX_ECHOED_CHARS}
     * characters.
     */
    public static String printable(String text) {
        boolean cut = text.length() > MAX_ECHOED_CHARS;
        String shown = cut ? text.substring(0, MAX_ECHOED_CHARS) : text;
        StringBuilder out = new StringBuilder(shown.length() + 1);
        shown.codePoints().forEach(cp -> {
            if (cp < 0x20 || cp == 0x7f) {
                out.append('?');
            } else if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
                out.append('\uFFFD');
            } else {
                out.appendCodePoint(cp);
            }
        });
        return cut ? out.append('\u2026').toString() : out.toString();
    }
}
