package dev.serverfs.adapters.fs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.Syscalls;
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
 * UTF-8. One instance per thread; not thread-safe.
 */
final class FileScanner {

    /** A matching line. */
    record Hit(long line, String text) {}

    private static final int INITIAL_CAPACITY = 64 * 1024;
    private static final int STAGING = 256 * 1024;

    private final Arena arena = Arena.ofAuto();
    private final MemorySegment staging = arena.allocate(STAGING);
    private byte[] buffer = new byte[INITIAL_CAPACITY];
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

        Query(String text, boolean caseSensitive) {
            this.latin1 = new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
            this.insensitive = caseSensitive
                    ? null
                    : Pattern.compile(text, Pattern.LITERAL | Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
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
                for (int i = end; i < end + n; i++) {
                    if (buffer[i] == 0) {
                        // Binary data: ripgrep stops without searching this buffer.
                        return hits;
                    }
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
                lineBase = searchRegion(regionEnd, query, lineBase, hits, cap);
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

    /** Searches complete lines {@code [0, regionEnd)}; returns the line number after the region. */
    private long searchRegion(int regionEnd, Query query, long lineBase, List<Hit> hits, int cap) {
        String hay = new String(buffer, 0, regionEnd, StandardCharsets.ISO_8859_1);
        if (query.insensitive != null) {
            return searchInsensitive(hay, regionEnd, query.insensitive, lineBase, hits, cap);
        }
        long line = lineBase;
        int counted = 0;
        int from = 0;
        while (from < regionEnd && hits.size() < cap) {
            int at = hay.indexOf(query.latin1, from);
            if (at < 0 || at >= regionEnd) {
                break;
            }
            int start = hay.lastIndexOf('\n', at - 1) + 1;
            int stop = hay.indexOf('\n', at);
            int lineEnd = stop < 0 ? regionEnd : stop;
            line += countNewlines(hay, counted, start);
            counted = start;
            String text = decodeLine(start, lineEnd);
            if (text != null) {
                hits.add(new Hit(line, text));
            }
            from = lineEnd + 1;
        }
        return line + countNewlines(hay, counted, regionEnd);
    }

    private long searchInsensitive(
            String latin, int regionEnd, Pattern pattern, long lineBase, List<Hit> hits, int cap) {
        long line = lineBase;
        int lineStart = 0;
        while (lineStart < regionEnd && hits.size() < cap) {
            int nl = latin.indexOf('\n', lineStart);
            int lineEnd = nl < 0 ? regionEnd : nl;
            String text = decodeLine(lineStart, lineEnd);
            if (text != null) {
                Matcher m = pattern.matcher(text);
                if (m.find()) {
                    hits.add(new Hit(line, text));
                }
            }
            line++;
            lineStart = lineEnd + 1;
        }
        return lineBase + countNewlines(latin, 0, regionEnd);
    }

    private static long countNewlines(String hay, int from, int to) {
        long count = 0;
        int at = hay.indexOf('\n', from);
        while (at >= 0 && at < to) {
            count++;
            at = hay.indexOf('\n', at + 1);
        }
        return count;
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
