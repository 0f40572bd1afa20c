package dev.serverfs.domain.file;

import java.util.Objects;

/**
 * The text {@code search_text} returns for a matched line (issue 10 §4c; the reference returns whole lines, so one
 * 10 MiB line made a 21 MB response). A line of at most {@link #MAX_BYTES} UTF-8 bytes is returned whole; a longer
 * one is cut, on character boundaries, to at most {@code MAX_BYTES} around its first match (context split evenly
 * before and after, a match longer than the cap shown from its start), and {@code truncated} is true.
 */
public record LineExcerpt(String text, boolean truncated) {

    /** The most UTF-8 bytes of one line {@code search_text} returns. */
    public static final int MAX_BYTES = 1024;

    public LineExcerpt {
        Objects.requireNonNull(text, "text");
    }

    /**
     * The excerpt of {@code line} around the match {@code [matchStart, matchEnd)} (char indices on code point
     * boundaries); {@code alreadyCut} when {@code line} is itself only a window of a longer line.
     */
    public static LineExcerpt of(String line, int matchStart, int matchEnd, boolean alreadyCut) {
        if (matchStart < 0 || matchEnd < matchStart || matchEnd > line.length()) {
            throw new IllegalArgumentException("match outside the line");
        }
        if (line.length() <= MAX_BYTES && utf8Length(line, 0, line.length()) <= MAX_BYTES) {
            return new LineExcerpt(line, alreadyCut);
        }
        int budget = MAX_BYTES;
        int start = matchStart;
        int end = matchStart;
        // The match itself first (as much of it as fits), then context: half of what is left before it, then
        // after it, then whatever the end of the line left unused goes before it again.
        end = extendRight(line, end, matchEnd, budget);
        budget -= (int) utf8Length(line, start, end);
        int before = extendLeft(line, start, 0, budget / 2);
        budget -= (int) utf8Length(line, before, start);
        start = before;
        int after = extendRight(line, end, line.length(), budget);
        budget -= (int) utf8Length(line, end, after);
        end = after;
        start = extendLeft(line, start, 0, budget);
        return new LineExcerpt(line.substring(start, end), true);
    }

    /** The furthest index {@code <= limit} reachable from {@code from} within {@code budget} UTF-8 bytes. */
    private static int extendRight(String s, int from, int limit, int budget) {
        int i = from;
        while (i < limit) {
            int cp = s.codePointAt(i);
            int bytes = utf8Bytes(cp);
            if (bytes > budget) {
                break;
            }
            budget -= bytes;
            i += Character.charCount(cp);
        }
        return i;
    }

    /** The smallest index {@code >= limit} reachable leftwards from {@code from} within {@code budget} bytes. */
    private static int extendLeft(String s, int from, int limit, int budget) {
        int i = from;
        while (i > limit) {
            int cp = s.codePointBefore(i);
            int bytes = utf8Bytes(cp);
            if (bytes > budget) {
                break;
            }
            budget -= bytes;
            i -= Character.charCount(cp);
        }
        return i;
    }

    /** UTF-8 length of {@code s[from, to)}. */
    public static long utf8Length(String s, int from, int to) {
        long n = 0;
        int i = from;
        while (i < to) {
            int cp = s.codePointAt(i);
            n += utf8Bytes(cp);
            i += Character.charCount(cp);
        }
        return n;
    }

    private static int utf8Bytes(int cp) {
        if (cp < 0x80) {
            return 1;
        }
        if (cp < 0x800) {
            return 2;
        }
        return cp < 0x10000 ? 3 : 4;
    }
}
