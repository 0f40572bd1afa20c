package dev.serverfs.adapters.fs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.domain.file.LineExcerpt;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
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
 * UTF-8. A file of 3 bytes or more starting with a UTF-16 BOM is transcoded to UTF-8 first, in ripgrep's chunks
 * ({@link #transcode}), and then searched like any other. One instance per thread; not thread-safe.
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
    /** The ASCII-lowered copy of {@link #buffer} a case-insensitive ASCII query is searched in. */
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

    // UTF-16 source state (a file that starts with a UTF-16 BOM), as in ripgrep's encoding_rs_io decoder: raw bytes
    // are read 8 KiB at a time and each read of the line buffer gets what one raw chunk transcodes to.
    private static final int RAW = 8 * 1024;
    private static final int REPLACEMENT_CHAR = 0xFFFD;
    private final byte[] raw = new byte[RAW];
    private boolean utf16;
    private boolean bigEndian;
    private int rawPos;
    private int rawLen;
    private boolean rawEof;
    /** The first byte of a code unit whose second byte is still to come, or -1. */
    private int pendingByte;
    /** A high surrogate waiting for its low one, or 0. */
    private int pendingHigh;
    /** Before the first code unit: a second BOM there is dropped too (encoding_rs "with BOM removal"). */
    private boolean atStart;
    /** What ripgrep's tiny transcoder made for a read of fewer than 4 bytes and has not handed out yet. */
    private final byte[] carry = new byte[7];

    private int carryPos;
    private int carryLen;

    /** The query, prepared once per search. */
    static final class Query {
        /** The query's UTF-8 bytes as a Latin-1 string (ASCII-lowered when {@link #asciiFolded}). */
        final String needle;
        /** The Unicode case-insensitive pattern, or null for a case-sensitive search. */
        final Pattern insensitive;

        final int length;
        /**
         * Whether a case-insensitive search folds ASCII bytes (the query is ASCII without a line feed). A line with a
         * non-ASCII byte still goes through {@link #insensitive}: a few non-ASCII characters (the Kelvin sign, long
         * s) fold to ASCII letters.
         */
        final boolean asciiFolded;

        Query(String text, boolean caseSensitive) {
            this(text, caseSensitive, true);
        }

        /** {@code foldAscii} false sends every line of a case-insensitive search through the pattern (tests). */
        Query(String text, boolean caseSensitive, boolean foldAscii) {
            this.length = text.length();
            this.insensitive = caseSensitive ? null : insensitivePattern(text);
            boolean foldable = foldAscii && !caseSensitive && text.indexOf('\n') < 0;
            for (int i = 0; i < text.length() && foldable; i++) {
                foldable = text.charAt(i) < 0x80;
            }
            this.asciiFolded = foldable;
            String latin1 = new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
            this.needle = foldable ? latin1.toLowerCase(java.util.Locale.ROOT) : latin1;
        }

        /**
         * The literal {@code text}, matched case-insensitively as ripgrep does: by Unicode simple case folding, which
         * Java's {@code UNICODE_CASE} matches except that it also equates the dotted capital I (U+0130) with
         * {@code i} and the dotless small i (U+0131) with {@code I}, which have no simple folding. Both sides are
         * therefore {@link #masked} first.
         */
        static Pattern insensitivePattern(String text) {
            return Pattern.compile(masked(text), Pattern.LITERAL | Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        }

        /**
         * {@code text} with U+0130 and U+0131 replaced, one char for one, by two lone low surrogates, which have no
         * case and never occur in a query or a decoded line (both are well-formed): each then matches only itself.
         */
        static String masked(String text) {
            if (text.indexOf('\u0130') < 0 && text.indexOf('\u0131') < 0) {
                return text;
            }
            return text.replace('\u0130', '\uDC00').replace('\u0131', '\uDC01');
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
        // Every file starts with ripgrep's 64 KiB, whatever an earlier long line grew the array to: how much one read
        // brings decides where binary detection stops, and so what is reported.
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
                if (end == capacity) {
                    // ripgrep's line buffer grows by twice its length (to three times)
                    capacity *= 3;
                    if (buffer.length < capacity) {
                        buffer = java.util.Arrays.copyOf(buffer, capacity);
                    }
                }
                int n = logicalRead(buffer, end, capacity - end);
                if (n == 0) {
                    eof = true;
                    break;
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
                String hay = haystack(regionEnd, query);
                // A NUL byte in any read since the last region (this region and the tail after it): binary data,
                // ripgrep stops without searching this buffer.
                if (hay.indexOf(0) >= 0 || ByteScan.hasNul(buffer, regionEnd, end)) {
                    return hits;
                }
                lineBase = searchRegion(hay, regionEnd, query, lineBase, hits, cap, stop);
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
     * The region {@code buffer[0, regionEnd)} as a Latin-1 string (one char per byte, so {@link String#indexOf}
     * searches bytes), ASCII-lowered for a folded query.
     */
    private String haystack(int regionEnd, Query query) {
        if (!query.asciiFolded) {
            return new String(buffer, 0, regionEnd, StandardCharsets.ISO_8859_1);
        }
        if (folded.length < regionEnd) {
            folded = new byte[buffer.length];
        }
        ByteScan.lowerAscii(buffer, folded, regionEnd);
        return new String(folded, 0, regionEnd, StandardCharsets.ISO_8859_1);
    }

    /**
     * Searches complete lines {@code [0, regionEnd)} ({@code hay}: see {@link #haystack}); returns the line number
     * after the region. The search runs in windows of {@link #WINDOW} bytes with {@code stop} checked between them,
     * so one huge line cannot keep a stopped search busy (issue 10 §1: the deadline bounds all of a search's work).
     */
    private long searchRegion(
            String hay, int regionEnd, Query query, long lineBase, List<Hit> hits, int cap, BooleanSupplier stop) {
        if (query.insensitive != null && !query.asciiFolded) {
            return searchInsensitive(regionEnd, query, lineBase, hits, cap, stop);
        }
        String needle = query.needle;
        int len = needle.length();
        long line = lineBase;
        int counted = 0;
        int from = 0;
        // For a folded search: the next non-ASCII byte at or after `from` (regionEnd when none).
        int nonAscii = query.asciiFolded ? ByteScan.nextNonAscii(buffer, 0, regionEnd) : regionEnd;
        while (from < regionEnd && hits.size() < cap) {
            int at = find(hay, needle, from, regionEnd, stop);
            if (nonAscii < from) {
                nonAscii = ByteScan.nextNonAscii(buffer, from, regionEnd);
            }
            int lineEnd = at < 0 ? regionEnd : ByteScan.nextNewline(buffer, at + len, regionEnd);
            if (nonAscii < lineEnd) {
                // A line with a non-ASCII byte comes first (or is the candidate's own line): the pattern decides.
                int start = ByteScan.lineStart(buffer, nonAscii);
                int end = ByteScan.nextNewline(buffer, nonAscii, regionEnd);
                line += ByteScan.countNewlines(buffer, counted, start);
                counted = start;
                matchLine(start, end, line, query, hits, stop);
                from = end + 1;
                continue;
            }
            if (at < 0) {
                break;
            }
            int start = ByteScan.lineStart(buffer, at);
            line += ByteScan.countNewlines(buffer, counted, start);
            counted = start;
            Hit hit;
            if (query.asciiFolded) {
                // As the pattern reports it: the whole (ASCII) line, cut around the match.
                String text = new String(buffer, start, lineEnd - start, StandardCharsets.ISO_8859_1);
                hit = new Hit(line, LineExcerpt.of(text, at - start, at - start + len, false));
            } else {
                hit = excerpt(line, start, lineEnd, at, at + len);
            }
            if (hit != null) {
                hits.add(hit);
            }
            from = lineEnd + 1;
        }
        return line + ByteScan.countNewlines(buffer, counted, regionEnd);
    }

    /** Every line of the region through the Unicode pattern (a case-insensitive query that is not ASCII). */
    private long searchInsensitive(
            int regionEnd, Query query, long lineBase, List<Hit> hits, int cap, BooleanSupplier stop) {
        long line = lineBase;
        int lineStart = 0;
        while (lineStart < regionEnd && hits.size() < cap && !stop.getAsBoolean()) {
            int lineEnd = ByteScan.nextNewline(buffer, lineStart, regionEnd);
            matchLine(lineStart, lineEnd, line, query, hits, stop);
            line++;
            lineStart = lineEnd + 1;
        }
        return lineBase + ByteScan.countNewlines(buffer, 0, regionEnd);
    }

    /** Case-insensitive search of the line {@code [lineStart, lineEnd)}, decoded, with the Unicode pattern. */
    private void matchLine(int lineStart, int lineEnd, long line, Query query, List<Hit> hits, BooleanSupplier stop) {
        String text = decodeLine(lineStart, lineEnd);
        if (text == null) {
            return;
        }
        int overlap = query.length;
        Matcher m = query.insensitive.matcher(Query.masked(text));
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
     * The first index of {@code needle} in {@code hay[from, to)}, searched in windows of {@link #WINDOW} bytes
     * with {@code stop} checked between them; -1 when there is none or the search was stopped.
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
        boolean le = head[0] == (byte) 0xFF && head[1] == (byte) 0xFE;
        boolean be = head[0] == (byte) 0xFE && head[1] == (byte) 0xFF;
        // ripgrep needs 3 bytes to recognise any BOM: a file of just FF FE is searched as those two bytes.
        utf16 = got == 3 && (le || be);
        if (got == 3 && head[0] == (byte) 0xEF && head[1] == (byte) 0xBB && head[2] == (byte) 0xBF) {
            peeked = new byte[0];
        } else if (utf16) {
            peeked = new byte[0];
            bigEndian = be;
            // The decoder's first chunk is the byte after the BOM, alone.
            raw[0] = head[2];
            rawPos = 0;
            rawLen = 1;
            rawEof = false;
            pendingByte = -1;
            pendingHigh = 0;
            atStart = true;
            carryPos = 0;
            carryLen = 0;
        } else {
            peeked = java.util.Arrays.copyOf(head, got);
        }
        peekedPos = 0;
    }

    /** One read of ripgrep's decoder: the sniffed bytes first (one read), then the file. */
    private int logicalRead(byte[] dst, int off, int len) throws ErrnoException {
        if (utf16) {
            return transcode(dst, off, len);
        }
        if (peekedPos < peeked.length) {
            int n = Math.min(len, peeked.length - peekedPos);
            System.arraycopy(peeked, peekedPos, dst, off, n);
            peekedPos += n;
            return n;
        }
        return rawRead(dst, off, len);
    }

    /**
     * One read of a UTF-16 file as ripgrep's decoder returns it (encoding_rs_io {@code DecodeReaderBytes} over
     * encoding_rs): the UTF-8 of what is left of the current raw chunk, as much as fits in {@code len}; a new raw
     * chunk only once one is used up; 0 at the end. Invalid code units (unpaired surrogates, an odd last byte)
     * become U+FFFD. A read of fewer than 4 bytes gets part of a small batch transcoded ahead (ripgrep's "tiny"
     * transcoder, 7 bytes), and the next read the rest of it. Needs no memory beyond the fixed raw chunk.
     */
    private int transcode(byte[] dst, int off, int len) throws ErrnoException {
        if (carryPos < carryLen) {
            int n = Math.min(len, carryLen - carryPos);
            System.arraycopy(carry, carryPos, dst, off, n);
            carryPos += n;
            return n;
        }
        if (len >= 4) {
            return transcodeInto(dst, off, len);
        }
        carryPos = 0;
        carryLen = transcodeInto(carry, 0, carry.length);
        return carryLen == 0 ? 0 : transcode(dst, off, len);
    }

    /** A read of at least 4 bytes: at least one byte, or 0 at the end of the file. */
    private int transcodeInto(byte[] dst, int off, int len) throws ErrnoException {
        if (rawEof) {
            return 0;
        }
        if (rawPos >= rawLen) {
            fillRaw();
        }
        while (true) {
            int n = decode(dst, off, len);
            if (n > 0) {
                return n;
            }
            fillRaw();
            if (rawLen == 0) {
                rawEof = true;
                if (pendingByte < 0 && pendingHigh == 0) {
                    return 0;
                }
                // A truncated unit or a lone high surrogate at the end: one replacement character.
                pendingByte = -1;
                pendingHigh = 0;
                return utf8(REPLACEMENT_CHAR, dst, off) - off;
            }
        }
    }

    /**
     * Transcodes {@code raw[rawPos, rawLen)} into {@code dst[off, off + len)}, {@code len >= 4}, as encoding_rs does:
     * an ASCII unit while a byte is free, any other character only while 4 are; returns the bytes written.
     */
    private int decode(byte[] dst, int off, int len) {
        int out = off;
        int limit = off + len;
        while (rawPos < rawLen) {
            int b = raw[rawPos] & 0xFF;
            if (pendingByte < 0) {
                pendingByte = b;
                rawPos++;
                continue;
            }
            int unit = bigEndian ? pendingByte << 8 | b : b << 8 | pendingByte;
            // encoding_rs copies ASCII to the last free byte, except for a unit split across two raw chunks.
            if (unit < 0x80 && pendingHigh == 0 && rawPos > 0 && out < limit) {
                dst[out++] = (byte) unit;
            } else if (limit - out < 4) {
                break; // the next read continues here
            } else if (atStart && unit == 0xFEFF) {
                // a second BOM: dropped
            } else if (unit >= 0xD800 && unit <= 0xDBFF) {
                if (pendingHigh != 0) {
                    out = utf8(REPLACEMENT_CHAR, dst, out);
                }
                pendingHigh = unit;
                pendingByte = -1;
                rawPos++;
                atStart = false;
                continue;
            } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
                out = utf8(
                        pendingHigh != 0 ? Character.toCodePoint((char) pendingHigh, (char) unit) : REPLACEMENT_CHAR,
                        dst,
                        out);
            } else if (pendingHigh != 0) {
                // The high surrogate was unpaired; this unit is decoded on its own next.
                out = utf8(REPLACEMENT_CHAR, dst, out);
                pendingHigh = 0;
                continue;
            } else {
                out = utf8(unit, dst, out);
            }
            pendingHigh = 0;
            pendingByte = -1;
            rawPos++;
            atStart = false;
        }
        return out - off;
    }

    /** Writes the UTF-8 of code point {@code cp} (not a surrogate) at {@code to[at]}; returns the index after it. */
    private static int utf8(int cp, byte[] to, int at) {
        if (cp < 0x80) {
            to[at] = (byte) cp;
            return at + 1;
        }
        if (cp < 0x800) {
            to[at] = (byte) (0xC0 | cp >> 6);
            to[at + 1] = (byte) (0x80 | cp & 0x3F);
            return at + 2;
        }
        if (cp < 0x10000) {
            to[at] = (byte) (0xE0 | cp >> 12);
            to[at + 1] = (byte) (0x80 | cp >> 6 & 0x3F);
            to[at + 2] = (byte) (0x80 | cp & 0x3F);
            return at + 3;
        }
        to[at] = (byte) (0xF0 | cp >> 18);
        to[at + 1] = (byte) (0x80 | cp >> 12 & 0x3F);
        to[at + 2] = (byte) (0x80 | cp >> 6 & 0x3F);
        to[at + 3] = (byte) (0x80 | cp & 0x3F);
        return at + 4;
    }

    /** The next raw chunk of a UTF-16 file: one 8 KiB read of the file (fewer bytes only at its end). */
    private void fillRaw() throws ErrnoException {
        rawPos = 0;
        rawLen = 0;
        while (rawLen < RAW) {
            int n = rawRead(raw, rawLen, RAW - rawLen);
            if (n == 0) {
                break;
            }
            rawLen += n;
        }
    }

    /**
     * One {@code read(2)} of a regular file as ripgrep makes it: all of {@code len} unless the file ends first (so
     * what each read brings, and so where binary detection stops, is ripgrep's), through the staging buffer.
     */
    private int rawRead(byte[] dst, int off, int len) throws ErrnoException {
        int done = 0;
        while (done < len) {
            if (stagingPos == stagingEnd) {
                stagingPos = 0;
                stagingEnd = (int) Syscalls.read(fd, staging, STAGING);
                if (stagingEnd == 0) {
                    break;
                }
            }
            int n = Math.min(len - done, stagingEnd - stagingPos);
            MemorySegment.copy(staging, JAVA_BYTE, stagingPos, dst, off + done, n);
            stagingPos += n;
            done += n;
        }
        return done;
    }
}
