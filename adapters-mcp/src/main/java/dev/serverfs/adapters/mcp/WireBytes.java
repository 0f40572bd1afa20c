package dev.serverfs.adapters.mcp;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A response body as it goes on the wire: a sequence of byte segments. What the generator writes is copied (its
 * buffer is reused); prepared payload bytes ({@link EncodedJson}) are {@linkplain #share shared}, not copied, so
 * a 1 MiB payload is never copied into the response. Sent as they are with a gathering write.
 */
final class WireBytes extends OutputStream {

    private final List<ByteBuffer> segments = new ArrayList<>(4);
    private long length;

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        if (len > 0) {
            add(ByteBuffer.wrap(Arrays.copyOfRange(b, off, off + len)));
        }
    }

    /** Appends {@code bytes[0, length)} without copying them; the caller never changes them afterwards. */
    void share(byte[] bytes, int length) {
        if (length > 0) {
            add(ByteBuffer.wrap(bytes, 0, length));
        }
    }

    private void add(ByteBuffer segment) {
        segments.add(segment);
        length += segment.remaining();
    }

    long length() {
        return length;
    }

    /** The segments, for one gathering write (each a fresh view: sending consumes them). */
    ByteBuffer[] buffers() {
        ByteBuffer[] out = new ByteBuffer[segments.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = segments.get(i).duplicate();
        }
        return out;
    }

    /** The whole body in one array. */
    byte[] toByteArray() {
        if (segments.size() == 1 && segments.getFirst().hasArray()) {
            ByteBuffer only = segments.getFirst();
            if (only.arrayOffset() == 0 && only.position() == 0 && only.array().length == only.remaining()) {
                return only.array();
            }
        }
        byte[] out = new byte[Math.toIntExact(length)];
        int at = 0;
        for (ByteBuffer segment : segments) {
            ByteBuffer view = segment.duplicate();
            int n = view.remaining();
            view.get(out, at, n);
            at += n;
        }
        return out;
    }
}
