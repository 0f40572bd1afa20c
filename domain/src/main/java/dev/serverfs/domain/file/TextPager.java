package dev.serverfs.domain.file;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

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

    private final long startLine;
    private final int maxLines;
    private final int maxBytes;
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
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private boolean done;
    private boolean hasMore;

    /**
     * @param label {@code <workdir>:<path>} for failure messages
     */
    public TextPager(long startLine, int maxLines, int maxBytes, String label) {
        if (startLine < 1 || maxLines < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("startLine, maxLines and maxBytes must be positive");
        }
        this.startLine = startLine;
        this.maxLines = maxLines;
        this.maxBytes = maxBytes;
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
        byte[] bytes = out.toByteArray();
        int length = committed;
        String content;
        try {
            content = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, length))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ServerFsException(ErrorCode.UNSUPPORTED_TEXT_ENCODING, label, "file is not valid UTF-8 text");
        }
        long endLine = startLine + returnedLines - 1;
        return new TextPage(startLine, endLine, content, length, hasMore);
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
            int newline = indexOf(data, (byte) '\n', i, end);
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
        out.write(data, from, length);
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
            if (out.size() != committed) {
                throw new IllegalStateException("pager buffer out of step");
            }
        }
        lineNumber++;
        lineLength = 0;
        lineStarted = false;
    }

    private static int indexOf(byte[] data, byte value, int from, int end) {
        for (int i = from; i < end; i++) {
            if (data[i] == value) {
                return i;
            }
        }
        return -1;
    }
}
