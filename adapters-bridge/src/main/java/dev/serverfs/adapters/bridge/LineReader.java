package dev.serverfs.adapters.bridge;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Optional;

/** Reads {@code \n}-terminated lines of at most a limit from a channel, keeping bytes that follow a line. */
final class LineReader {
    /** A line longer than the limit: the reader stops at the limit, the rest is never read. */
    static final class LineTooLong extends IOException {
        private static final long serialVersionUID = 1L;

        LineTooLong() {
            super("line too long", null);
        }
    }

    private final ReadableByteChannel in;
    private final int limit;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024).flip();

    LineReader(ReadableByteChannel in, int limit) {
        this.in = in;
        this.limit = limit;
    }

    /**
     * The next line without its terminator; empty at end of stream on a line boundary. A stream ending inside a
     * line throws {@link EOFException}; more than {@code limit} bytes before the terminator throw {@link
     * LineTooLong}.
     */
    Optional<byte[]> next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int start = buffer.position();
            for (int i = start; i < buffer.limit(); i++) {
                if (buffer.get(i) == '\n') {
                    append(line, start, i - start);
                    buffer.position(i + 1);
                    return Optional.of(line.toByteArray());
                }
            }
            append(line, start, buffer.limit() - start);
            buffer.clear();
            int read = in.read(buffer);
            buffer.flip();
            if (read < 0) {
                if (line.size() == 0) {
                    return Optional.empty();
                }
                throw new EOFException("stream ended inside a line");
            }
        }
    }

    private void append(ByteArrayOutputStream line, int from, int length) throws LineTooLong {
        if (line.size() + length > limit) {
            throw new LineTooLong();
        }
        line.write(buffer.array(), from, length);
    }

    static void writeFully(WritableByteChannel out, byte[] bytes) throws IOException {
        ByteBuffer data = ByteBuffer.wrap(bytes);
        while (data.hasRemaining()) {
            out.write(data);
        }
    }
}
