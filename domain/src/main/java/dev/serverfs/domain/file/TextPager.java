package dev.serverfs.domain.file;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The line pagination of {@code read_text_file} as a pure state machine fed with the file's bytes in order
 * (contract reference §2.5): a NUL in the first 1024 bytes is {@code BINARY_FILE}; a UTF-8 BOM is dropped from
 * physical line 1 only; lines keep their {@code \n}; a single line from {@code startLine} on longer than the
 * byte budget is {@code LINE_TOO_LARGE}; the page stops at {@code maxLines} lines or before the line that would
 * overflow the budget; the joined bytes must be valid UTF-8. Memory stays within the byte budget plus one line.
 */
public final class TextPager {

    /** Bytes inspected for NUL before anything else (reference §2.5). */
    public static final int BINARY_SNIFF_BYTES = 1024;

    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long NEWLINES = ONES * '\n';
    private static final long HIGHS = 0x8080808080808080L;
    /** The page buffer's usual first size: the read's chunk, so a page of up to 64 KiB is never copied to grow. */
    private static final int INITIAL_CAPACITY = 64 * 1024;

    private static final int MIN_CAPACITY = 64;

    private final long startLine;
    private final int maxLines;
    private final int maxBytes;
    /** The page buffer's first size: the file's, when it is below the usual first size. */
    private final int firstCapacity;
    /** The most the page can hold by the file's reported size (what the buffer's doubling stops at). */
    private final long sizeBound;

    private final String label;

    private final byte[] head = new byte[BINARY_SNIFF_BYTES];
    private int headLength;
    private boolean headChecked;
    private long consumed;

    private long lineNumber = 1;
    private long lineLength;
    private boolean lineStarted;
    private int returnedLines;
    private int committed;
    /** The page's bytes so far: {@code committed} of complete lines, then the line being read. */
    private byte[] out = new byte[0];

    private int size;
    private boolean done;
    private boolean hasMore;

    /**
     * @param sizeHint the file's size as {@code fstat} gave it: only the page buffer's first size depends on it, so
     *     a file that changes while it is read (or a pseudo-file reporting 0) pages the same
     * @param label {@code <workdir>:<path>} for failure messages
     */
    public TextPager(long startLine, int maxLines, int maxBytes, long sizeHint, String label) {
        if (startLine < 1 || maxLines < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("startLine, maxLines and maxBytes must be positive");
        }
        this.startLine = startLine;
        this.maxLines = maxLines;
        this.maxBytes = maxBytes;
        this.firstCapacity = (int) Math.min(INITIAL_CAPACITY, Math.max(MIN_CAPACITY, sizeHint));
        this.sizeBound = Math.max(MIN_CAPACITY, sizeHint);
        this.label = label;
    }

    /** Feeds the next bytes of the file; returns false once the page is complete and no more input is needed. */
    public boolean accept(byte[] data, int offset, int length) {
        if (done) {
            return false;
        }
        int from = offset;
        int end = offset + length;
        if (!headChecked) {
            int take = Math.min(BINARY_SNIFF_BYTES - headLength, length);
            System.arraycopy(data, offset, head, headLength, take);
            headLength += take;
            from += take;
            if (headLength < BINARY_SNIFF_BYTES) {
                return true;
            }
            checkHead();
            process(head, 0, headLength);
        }
        if (!done && from < end) {
            process(data, from, end);
        }
        return !done;
    }

    /** Ends the input (EOF) and returns the page. */
    public TextPage finish() {
        if (!headChecked) {
            checkHead();
            process(head, 0, headLength);
        }
        if (!done && lineStarted) {
            completeLine();
        }
        done = true;
        int length = committed;
        String content = decode(out, length);
        long endLine = startLine + returnedLines - 1;
        return new TextPage(startLine, endLine, content, length, hasMore);
    }

    /**
     * The page as a string, or {@code UNSUPPORTED_TEXT_ENCODING}. The JDK's own decoding (an ASCII fast path over
     * the bytes, then a strict UTF-8 decoder) replaces every malformed or unmappable sequence with U+FFFD; a
     * result without one was therefore valid, and only a page holding U+FFFD is checked again by the reporting
     * decoder (the character may well be in the file).
     */
    private String decode(byte[] bytes, int length) {
        String content = new String(bytes, 0, length, StandardCharsets.UTF_8);
        if (content.indexOf('\uFFFD') < 0) {
            return content;
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, length))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ServerFsException(ErrorCode.UNSUPPORTED_TEXT_ENCODING, label, "file is not valid UTF-8 text");
        }
    }

    private void checkHead() {
        headChecked = true;
        for (int i = 0; i < headLength; i++) {
            if (head[i] == 0) {
                throw new ServerFsException(ErrorCode.BINARY_FILE, label, "file appears to be binary");
            }
        }
    }

    private void process(byte[] data, int from, int end) {
        int i = from;
        while (i < end && !done) {
            if (consumed == 0 && isBomAt(data, i, end)) {
                // Only physical line 1 loses a UTF-8 BOM (reference §2.5). The head (1024 bytes or the whole
                // file) is always processed in one piece, so a BOM is never split between two calls.
                consumed += BOM.length;
                i += BOM.length;
                continue;
            }
            int newline = indexOfNewline(data, i, end);
            int stop = newline < 0 ? end : newline + 1;
            append(data, i, stop - i);
            consumed += stop - i;
            i = stop;
            if (newline >= 0 && !done) {
                completeLine();
            }
        }
    }

    private static boolean isBomAt(byte[] data, int i, int end) {
        for (int k = 0; k < BOM.length; k++) {
            if (i + k >= end || data[i + k] != BOM[k]) {
                return false;
            }
        }
        return true;
    }

    private void append(byte[] data, int from, int length) {
        if (length == 0) {
            return;
        }
        if (!lineStarted) {
            lineStarted = true;
            if (lineNumber >= startLine && returnedLines == maxLines) {
                hasMore = true;
                done = true;
                return;
            }
        }
        lineLength += length;
        if (lineNumber < startLine) {
            return;
        }
        if (lineLength > maxBytes) {
            throw new ServerFsException(
                    ErrorCode.LINE_TOO_LARGE, label, "line " + lineNumber + " exceeds " + maxBytes + " bytes");
        }
        if (committed + lineLength > maxBytes) {
            // This line can no longer join the page (its end decides between has_more and LINE_TOO_LARGE): only
            // its length counts, so the buffer never holds more than the budget.
            return;
        }
        if (size + length > out.length) {
            // Doubling, but not beyond the file's reported size while the page fits in it (a file that grew past
            // it, or a pseudo-file reporting 0, doubles on), and never beyond the budget.
            long needed = (long) size + length;
            long doubled = Math.max(out.length == 0 ? firstCapacity : INITIAL_CAPACITY, 2L * out.length);
            long capped = needed <= sizeBound ? Math.min(doubled, sizeBound) : doubled;
            out = Arrays.copyOf(out, (int) Math.max(Math.min(capped, maxBytes), needed));
        }
        System.arraycopy(data, from, out, size, length);
        size += length;
    }

    private void completeLine() {
        if (lineNumber >= startLine) {
            if (committed + lineLength > maxBytes) {
                hasMore = true;
                done = true;
                return;
            }
            committed += (int) lineLength;
            returnedLines++;
            if (size != committed) {
                throw new IllegalStateException("pager buffer out of step");
            }
        }
        lineNumber++;
        lineLength = 0;
        lineStarted = false;
    }

    /** The first {@code \n} in {@code data[from, end)}, or -1; eight bytes at a time. */
    private static int indexOfNewline(byte[] data, int from, int end) {
        int i = from;
        for (; i + 8 <= end; i += 8) {
            long word = (long) LONG.get(data, i) ^ NEWLINES;
            long zero = (word - ONES) & ~word & HIGHS;
            if (zero != 0) {
                return i + (Long.numberOfTrailingZeros(zero) >>> 3);
            }
        }
        for (; i < end; i++) {
            if (data[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
