package dev.serverfs.adapters.fs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.domain.file.LineExcerpt;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Searches one open file for a literal the way {@code rg --fixed-strings} does by default: the file is consumed
 * through ripgrep's line buffer (64 KiB, grown for long lines; the first read returns at most the 3 bytes sniffed
 * for a BOM, and a UTF-8 BOM is dropped), a NUL byte in newly read data ends the file and discards that buffer
 * (binary detection "quit"), one match per line, lines reported without their {@code \n} and only when valid
 * UTF-8. One instance per thread; not thread-safe.
 */
final class FileScanner {

    /** A matching line, as an excerpt around its first match when it is long. */
    record Hit(long line, LineExcerpt text) {}

    private static final int INITIAL_CAPACITY = 64 * 1024;
    private static final int STAGING = 256 * 1024;
    /** Bytes (or chars) searched between two checks of the stop signal. */
    private static final int WINDOW = 1 << 20;

    private final Arena arena = Arena.ofAuto();
    private final MemorySegment staging = arena.allocate(STAGING);
    private byte[] buffer = new byte[INITIAL_CAPACITY];
    /** The ASCII-lowered copy of {@link #buffer} a case-insensitive ASCII query searches. */
    private byte[] folded = new byte[0];
    private final CharsetDecoder strict = StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);

    // Source state for one file.
    private int fd;
    private int stagingPos;
    private int stagingEnd;
    private byte[] peeked;
    private int peekedPos;

    /** The query, prepared once per search. */
    static final class Query {
        final String latin1;
        final Pattern insensitive;
        final int length;
        /**
         * The query in ASCII lower case when a case-insensitive search may fold bytes (the query is ASCII without
         * a line feed), else null. A line with a non-ASCII byte still goes through {@link #insensitive}: a few
         * non-ASCII characters (the Kelvin sign, long s, dotted and dotless i) fold to ASCII letters.
         */
        final String asciiFolded;

        Query(String text, boolean caseSensitive) {
            this.length = text.length();
            this.latin1 = new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
            this.insensitive = caseSensitive
                    ? null
                    : Pattern.compile(text, Pattern.LITERAL | Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
            boolean foldable = !caseSensitive && text.indexOf('\n') < 0;
            for (int i = 0; i < text.length() && foldable; i++) {
                foldable = text.charAt(i) < 0x80;
            }
            this.asciiFolded = foldable ? lowerAscii(text) : null;
        }

        private static String lowerAscii(String text) {
            char[] out = text.toCharArray();
            for (int i = 0; i < out.length; i++) {
                if (out[i] >= 'A' && out[i] <= 'Z') {
                    out[i] += 'a' - 'A';
                }
            }
            return new String(out);
        }
    }

    /**
     * Scans an open regular file (not closed here) until EOF, binary data, {@code cap} hits, or {@code stop}.
     */
    List<Hit> scan(int fileFd, Query query, int cap, BooleanSupplier stop) throws ErrnoException {
        this.fd = fileFd;
        this.stagingPos = 0;
        this.stagingEnd = 0;
        List<Hit> hits = new ArrayList<>();
        sniffBom();
        int capacity = INITIAL_CAPACITY;
        if (buffer.length < capacity) {
            buffer = new byte[capacity];
        }
        int end = 0;
        long lineBase = 1;
        while (true) {
            if (stop.getAsBoolean()) {
                return hits;
            }
            int lastTerminator = -1;
            boolean eof = false;
            while (lastTerminator < 0) {
                if (end == buffer.length) {
                    byte[] bigger = new byte[buffer.length * 2];
                    System.arraycopy(buffer, 0, bigger, 0, end);
                    buffer = bigger;
                }
                int n = logicalRead(buffer, end, buffer.length - end);
                if (n == 0) {
                    eof = true;
                    break;
                }
                if (hasNul(buffer, end, end + n)) {
                    // Binary data: ripgrep stops without searching this buffer.
                    return hits;
                }
                for (int i = end + n - 1; i >= end; i--) {
                    if (buffer[i] == '\n') {
                        lastTerminator = i;
                        break;
                    }
                }
                end += n;
            }
            int regionEnd = eof ? end : lastTerminator + 1;
            if (regionEnd > 0) {
                lineBase = searchRegion(regionEnd, query, lineBase, hits, cap, stop);
                if (hits.size() >= cap) {
                    return hits;
                }
            }
            if (eof) {
                return hits;
            }
            System.arraycopy(buffer, regionEnd, buffer, 0, end - regionEnd);
            end -= regionEnd;
        }
    }

    /**
     * Searches complete lines {@code [0, regionEnd)}; returns the line number after the region. The search runs in
     * windows of {@link #WINDOW} bytes with {@code stop} checked between them, so one huge line cannot keep a
     * stopped search busy (issue 10 §1: the deadline bounds all of a search's work).
     */
    private long searchRegion(
            int regionEnd, Query query, long lineBase, List<Hit> hits, int cap, BooleanSupplier stop) {
        if (query.asciiFolded != null) {
            return searchFolded(regionEnd, query, lineBase, hits, cap, stop);
        }
        String hay = new String(buffer, 0, regionEnd, StandardCharsets.ISO_8859_1);
        if (query.insensitive != null) {
            return searchInsensitive(hay, regionEnd, query, lineBase, hits, cap, stop);
        }
        String needle = query.latin1;
        long line = lineBase;
        int counted = 0;
        int from = 0;
        while (from < regionEnd && hits.size() < cap) {
            int at = find(hay, needle, from, regionEnd, stop);
            if (at < 0) {
                break;
            }
            int start = hay.lastIndexOf('\n', at - 1) + 1;
            int newline = hay.indexOf('\n', at + needle.length());
            int lineEnd = newline < 0 || newline > regionEnd ? regionEnd : newline;
            line += countNewlines(buffer, counted, start);
            counted = start;
            Hit hit = excerpt(line, start, lineEnd, at, at + needle.length());
            if (hit != null) {
                hits.add(hit);
            }
            from = lineEnd + 1;
        }
        return line + countNewlines(buffer, counted, regionEnd);
    }

    private long searchInsensitive(
            String latin, int regionEnd, Query query, long lineBase, List<Hit> hits, int cap, BooleanSupplier stop) {
        int lineStart = 0;
        long line = lineBase;
        while (lineStart < regionEnd && hits.size() < cap && !stop.getAsBoolean()) {
            int nl = latin.indexOf('\n', lineStart);
            int lineEnd = nl < 0 ? regionEnd : nl;
            matchLine(lineStart, lineEnd, line, query, hits, stop);
            line++;
            lineStart = lineEnd + 1;
        }
        return lineBase + countNewlines(buffer, 0, regionEnd);
    }

    /** Case-insensitive search of the line {@code [lineStart, lineEnd)}, decoded, with the Unicode pattern. */
    private void matchLine(int lineStart, int lineEnd, long line, Query query, List<Hit> hits, BooleanSupplier stop) {
        String text = decodeLine(lineStart, lineEnd);
        if (text == null) {
            return;
        }
        int overlap = query.length;
        Matcher m = query.insensitive.matcher(text);
        int scanFrom = 0;
        while (true) {
            int windowEnd = (int) Math.min(text.length(), (long) scanFrom + WINDOW + overlap);
            m.region(scanFrom, windowEnd);
            if (m.find()) {
                hits.add(new Hit(line, LineExcerpt.of(text, m.start(), m.end(), false)));
                return;
            }
            if (windowEnd == text.length() || stop.getAsBoolean()) {
                return;
            }
            scanFrom = Math.max(scanFrom + 1, windowEnd - overlap);
        }
    }

    /**
     * Case-insensitive search of an ASCII query over ASCII-lowered bytes, with the hits of {@link
     * #searchInsensitive}: on a line of ASCII bytes only, ASCII case folding is the Unicode one, so a candidate
     * there is exact; a line with a non-ASCII byte, matched or not, goes through {@link #matchLine}.
     */
    private long searchFolded(
            int regionEnd, Query query, long lineBase, List<Hit> hits, int cap, BooleanSupplier stop) {
        if (folded.length < regionEnd) {
            folded = new byte[buffer.length];
        }
        boolean anyNonAscii = lowerAscii(buffer, folded, regionEnd);
        String hay = new String(folded, 0, regionEnd, StandardCharsets.ISO_8859_1);
        String needle = query.asciiFolded;
        int len = needle.length();
        long line = lineBase;
        int counted = 0;
        int from = 0;
        int nonAscii = anyNonAscii ? nextNonAscii(buffer, 0, regionEnd) : regionEnd;
        while (from < regionEnd && hits.size() < cap) {
            int at = find(hay, needle, from, regionEnd, stop);
            if (nonAscii < from) {
                nonAscii = nextNonAscii(buffer, from, regionEnd);
            }
            int candidateEnd = regionEnd;
            if (at >= 0) {
                int newline = hay.indexOf('\n', at + len);
                candidateEnd = newline < 0 ? regionEnd : newline;
            } else if (nonAscii == regionEnd) {
                break;
            }
            if (nonAscii < candidateEnd) {
                // A line with a non-ASCII byte comes first (or is the candidate's own line).
                int start = hay.lastIndexOf('\n', nonAscii - 1) + 1;
                int newline = hay.indexOf('\n', nonAscii);
                int lineEnd = newline < 0 ? regionEnd : newline;
                line += countNewlines(buffer, counted, start);
                counted = start;
                matchLine(start, lineEnd, line, query, hits, stop);
                from = lineEnd + 1;
                continue;
            }
            int start = hay.lastIndexOf('\n', at - 1) + 1;
            line += countNewlines(buffer, counted, start);
            counted = start;
            String text = new String(buffer, start, candidateEnd - start, StandardCharsets.ISO_8859_1);
            hits.add(new Hit(line, LineExcerpt.of(text, at - start, at - start + len, false)));
            from = candidateEnd + 1;
        }
        return line + countNewlines(buffer, counted, regionEnd);
    }

    /**
     * The first index of {@code needle} in {@code hay[from, to)}, searched in windows of {@link #WINDOW} with
     * {@code stop} checked between them; -1 when there is none or the search was stopped.
     */
    private static int find(String hay, String needle, int from, int to, BooleanSupplier stop) {
        int len = needle.length();
        int scanFrom = from;
        while (true) {
            int windowEnd = (int) Math.min(to, (long) scanFrom + WINDOW + len);
            int at = hay.indexOf(needle, scanFrom, windowEnd);
            if (at >= 0 || windowEnd == to || stop.getAsBoolean()) {
                return at;
            }
            // Overlap the next window so a match across the boundary is still found.
            scanFrom = windowEnd - len + 1;
        }
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long LOWS = 0x7F7F7F7F7F7F7F7FL;
    private static final long NEWLINES = ONES * '\n';

    /** Whether {@code b[from, to)} holds a NUL byte, eight bytes at a time. */
    static boolean hasNul(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long v = (long) LONGS.get(b, i);
            if (((v - ONES) & ~v & HIGHS) != 0) {
                return true;
            }
        }
        for (; i < to; i++) {
            if (b[i] == 0) {
                return true;
            }
        }
        return false;
    }

    /** The number of {@code \n} bytes in {@code b[from, to)}, eight bytes at a time. */
    static long countNewlines(byte[] b, int from, int to) {
        long count = 0;
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) LONGS.get(b, i) ^ NEWLINES;
            // The high bit of each byte is set exactly where that byte of x is zero (no carry between bytes).
            count += Long.bitCount(~(((x & LOWS) + LOWS) | x) & HIGHS);
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                count++;
            }
        }
        return count;
    }

    /** The index of the first byte {@code >= 0x80} in {@code b[from, to)}, or {@code to}. */
    static int nextNonAscii(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long high = (long) LONGS.get(b, i) & HIGHS;
            if (high != 0) {
                return i + (Long.numberOfTrailingZeros(high) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] < 0) {
                return i;
            }
        }
        return to;
    }

    /**
     * Copies {@code src[0, n)} to {@code dst} with the ASCII letters {@code A-Z} lowered and every other byte
     * unchanged; returns whether a byte {@code >= 0x80} was seen.
     */
    static boolean lowerAscii(byte[] src, byte[] dst, int n) {
        long seen = 0;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long v = (long) LONGS.get(src, i);
            long heptets = v & LOWS;
            // The high bit is set in bytes >= 'A' and in bytes > 'Z' (7-bit sums: no carry between bytes).
            long atLeastA = heptets + ONES * (0x80 - 'A');
            long aboveZ = heptets + ONES * (0x80 - 'Z' - 1);
            long upper = (atLeastA ^ aboveZ) & ~v & HIGHS;
            LONGS.set(dst, i, v | (upper >>> 2));
            seen |= v;
        }
        for (; i < n; i++) {
            byte c = src[i];
            dst[i] = c >= 'A' && c <= 'Z' ? (byte) (c + ('a' - 'A')) : c;
            seen |= c;
        }
        return (seen & HIGHS) != 0;
    }

    /**
     * The hit for the line {@code [start, end)} of the buffer with a match at bytes {@code [matchStart, matchEnd)}, or
     * null when the line is not valid UTF-8 (ripgrep reports it as bytes, which the reference cannot show). A line
     * over {@link LineExcerpt#MAX_BYTES} is validated whole but only a window around the match is decoded.
     */
    private Hit excerpt(long line, int start, int end, int matchStart, int matchEnd) {
        if (end - start <= LineExcerpt.MAX_BYTES) {
            String text = decodeLine(start, end);
            if (text == null) {
                return null;
            }
            int from = chars(start, matchStart);
            return new Hit(line, LineExcerpt.of(text, from, from + chars(matchStart, matchEnd), false));
        }
        if (!validUtf8(buffer, start, end)) {
            return null;
        }
        int windowStart = boundaryAtOrAfter(Math.max(start, matchStart - LineExcerpt.MAX_BYTES), end);
        int windowEnd = (int) Math.min(end, (long) matchEnd + LineExcerpt.MAX_BYTES);
        windowEnd = boundaryAtOrAfter(windowEnd, end);
        String window = new String(buffer, windowStart, windowEnd - windowStart, StandardCharsets.UTF_8);
        int from = chars(windowStart, matchStart);
        int to = from + chars(matchStart, Math.min(matchEnd, windowEnd));
        return new Hit(line, LineExcerpt.of(window, from, to, true));
    }

    /**
     * Whether {@code [from, to)} is well-formed UTF-8 as the strict decoder sees it: no stray continuation byte,
     * no truncated, overlong or surrogate sequence, nothing above U+10FFFF. Checks a long line without decoding it.
     */
    static boolean validUtf8(byte[] b, int from, int to) {
        int i = from;
        while (i < to) {
            int lead = b[i] & 0xFF;
            if (lead < 0x80) {
                i++;
                continue;
            }
            int need;
            int min;
            if (lead >= 0xC2 && lead <= 0xDF) {
                need = 1;
                min = 0x80;
            } else if (lead >= 0xE0 && lead <= 0xEF) {
                need = 2;
                min = 0x800;
            } else if (lead >= 0xF0 && lead <= 0xF4) {
                need = 3;
                min = 0x10000;
            } else {
                return false;
            }
            if (i + need >= to) {
                return false;
            }
            int cp = lead & (0x3F >> need);
            for (int k = 1; k <= need; k++) {
                int c = b[i + k] & 0xFF;
                if ((c & 0xC0) != 0x80) {
                    return false;
                }
                cp = (cp << 6) | (c & 0x3F);
            }
            if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                return false;
            }
            i += need + 1;
        }
        return true;
    }

    /** The first index {@code >= at} (and {@code <= limit}) that does not point into the middle of a character. */
    private int boundaryAtOrAfter(int at, int limit) {
        int i = at;
        while (i < limit && (buffer[i] & 0xC0) == 0x80) {
            i++;
        }
        return i;
    }

    /** UTF-16 length of the valid UTF-8 bytes {@code [from, to)}: one char per sequence, two for 4-byte ones. */
    private int chars(int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            int b = buffer[i] & 0xFF;
            if ((b & 0xC0) != 0x80) {
                n += b >= 0xF0 ? 2 : 1;
            }
        }
        return n;
    }

    private String decodeLine(int start, int end) {
        boolean ascii = true;
        for (int i = start; i < end && ascii; i++) {
            ascii = buffer[i] >= 0;
        }
        if (ascii) {
            return new String(buffer, start, end - start, StandardCharsets.ISO_8859_1);
        }
        try {
            CharBuffer chars = strict.reset().decode(ByteBuffer.wrap(buffer, start, end - start));
            return chars.toString();
        } catch (CharacterCodingException e) {
            // ripgrep reports such a line as base64 bytes, which the reference cannot show as text.
            return null;
        }
    }

    private void sniffBom() throws ErrnoException {
        byte[] head = new byte[3];
        int got = 0;
        while (got < 3) {
            int n = rawRead(head, got, 3 - got);
            if (n == 0) {
                break;
            }
            got += n;
        }
        if (got == 3 && head[0] == (byte) 0xEF && head[1] == (byte) 0xBB && head[2] == (byte) 0xBF) {
            peeked = new byte[0];
        } else {
            peeked = java.util.Arrays.copyOf(head, got);
        }
        peekedPos = 0;
    }

    /** One read of ripgrep's decoder: the sniffed bytes first (one read), then the file. */
    private int logicalRead(byte[] dst, int off, int len) throws ErrnoException {
        if (peekedPos < peeked.length) {
            int n = Math.min(len, peeked.length - peekedPos);
            System.arraycopy(peeked, peekedPos, dst, off, n);
            peekedPos += n;
            return n;
        }
        return rawRead(dst, off, len);
    }

    private int rawRead(byte[] dst, int off, int len) throws ErrnoException {
        if (stagingPos == stagingEnd) {
            stagingPos = 0;
            stagingEnd = (int) Syscalls.read(fd, staging, STAGING);
            if (stagingEnd == 0) {
                return 0;
            }
        }
        int n = Math.min(len, stagingEnd - stagingPos);
        MemorySegment.copy(staging, JAVA_BYTE, stagingPos, dst, off, n);
        stagingPos += n;
        return n;
    }
}
