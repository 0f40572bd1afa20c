package dev.serverfs.domain.task;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One UTF-8-safe chunk of a spooled result (reference §3.5): concatenating the chunks reproduces the bytes
 * exactly.
 */
public record ResultChunk(String text, long offsetBytes, long nextOffsetBytes, boolean eof) {
    public ResultChunk {
        Objects.requireNonNull(text, "text");
    }

    /** {@code max_bytes} must be 1..limit ({@code INVALID_RESULT_LIMIT}); offset 0..size ({@code INVALID_RESULT_OFFSET}). */
    public static void checkRequest(long offset, long maxBytes, long size, AgentLimits limits) {
        if (maxBytes < 1 || maxBytes > limits.maxResultChunkBytes()) {
            throw new ServerFsException(ErrorCode.INVALID_RESULT_LIMIT, "max_bytes is out of range");
        }
        if (offset < 0 || offset > size) {
            throw new ServerFsException(ErrorCode.INVALID_RESULT_OFFSET, "offset_bytes is out of range");
        }
    }

    /**
     * Builds the chunk from the bytes read at {@code offset} (at most the requested maximum): an offset inside a
     * character → {@code INVALID_RESULT_OFFSET}; a maximum too small for the next character → {@code
     * INVALID_RESULT_LIMIT}; otherwise trimmed back to the last complete character.
     */
    public static ResultChunk of(byte[] read, long offset, long size) {
        if (read.length > 0 && Utf8.isContinuation(read[0])) {
            throw new ServerFsException(ErrorCode.INVALID_RESULT_OFFSET, "offset_bytes is not on a UTF-8 boundary");
        }
        int length = offset + read.length >= size ? read.length : Utf8.completeLength(read);
        if (length == 0 && read.length > 0) {
            throw new ServerFsException(
                    ErrorCode.INVALID_RESULT_LIMIT, "max_bytes is too small for the next character");
        }
        long next = offset + length;
        String text = new String(Arrays.copyOf(read, length), StandardCharsets.UTF_8);
        return new ResultChunk(text, offset, next, next >= size);
    }
}
