package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Long ASCII strings of tool payloads (a page of a text file) escaped eight bytes at a time instead of one character
 * at a time, with exactly Jackson's escapes: {@code \"}, {@code \\}, {@code \b \t \n \f \r}, any other control
 * character as a six-character {@code u00XX} escape (upper-case hex), nothing else. A string holding anything but
 * ASCII, or a short one, is left to Jackson's own encoder, so the output is byte for byte what Jackson writes.
 */
final class AsciiStrings extends StdSerializer<String> {

    /** Below this, Jackson's per-character loop is as fast. */
    static final int MIN_LENGTH = 256;

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long LOWS = 0x7F7F7F7F7F7F7F7FL;
    private static final int MAX_ESCAPE = 6;
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    AsciiStrings() {
        super(String.class);
    }

    @Override
    public void serialize(String value, JsonGenerator gen, SerializerProvider provider) throws IOException {
        Bytes escaped = value.length() < MIN_LENGTH ? null : escape(value);
        if (escaped == null) {
            gen.writeString(value);
        } else {
            gen.writeRawUTF8String(escaped.array(), 0, escaped.length());
        }
    }

    /** The first {@code length} bytes of {@code array}. */
    record Bytes(byte[] array, int length) {}

    /** The body of the JSON string holding {@code value}, or null when it is not all ASCII. */
    static Bytes escape(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length != value.length()) {
            return null;
        }
        int n = bytes.length;
        // One pass: room for an escape every 16 bytes, grown if the text has more.
        byte[] out = null;
        int o = 0;
        int run = 0;
        int k = 0;
        for (; k + 8 <= n; k += 8) {
            long word = (long) LONG.get(bytes, k);
            for (long special = quoteOrBackslash(word) | control(word); special != 0; special &= special - 1) {
                int at = k + (Long.numberOfTrailingZeros(special) >>> 3);
                out = room(out, o + at - run + MAX_ESCAPE + (n - at), n);
                System.arraycopy(bytes, run, out, o, at - run);
                o = escapeTo(out, o + at - run, bytes[at]);
                run = at + 1;
            }
        }
        for (; k < n; k++) {
            if (extra(bytes[k]) != 0) {
                out = room(out, o + k - run + MAX_ESCAPE + (n - k), n);
                System.arraycopy(bytes, run, out, o, k - run);
                o = escapeTo(out, o + k - run, bytes[k]);
                run = k + 1;
            }
        }
        if (out == null) {
            return new Bytes(bytes, n);
        }
        System.arraycopy(bytes, run, out, o, n - run);
        return new Bytes(out, o + n - run);
    }

    /** {@code out}, or a larger copy, holding at least {@code needed} bytes; the first one sized for {@code n}. */
    static byte[] room(byte[] out, int needed, int n) {
        if (out == null) {
            return new byte[Math.max(needed, n + (n >> 4) + 16)];
        }
        if (needed <= out.length) {
            return out;
        }
        return Arrays.copyOf(out, Math.max(needed, out.length + (out.length >> 1)));
    }

    /** Writes the escape of {@code b} at {@code o}; returns the index after it. */
    private static int escapeTo(byte[] out, int o, byte b) {
        out[o++] = '\\';
        switch (b) {
            case '"', '\\' -> out[o++] = b;
            case '\b' -> out[o++] = 'b';
            case '\t' -> out[o++] = 't';
            case '\n' -> out[o++] = 'n';
            case '\f' -> out[o++] = 'f';
            case '\r' -> out[o++] = 'r';
            default -> {
                out[o++] = 'u';
                out[o++] = '0';
                out[o++] = '0';
                out[o++] = HEX[b >> 4];
                out[o++] = HEX[b & 0xF];
            }
        }
        return o;
    }

    /** Bytes an escape adds: 0 for a byte copied as it is. Only called for ASCII. */
    private static int extra(byte b) {
        if (b == '"' || b == '\\') {
            return 1;
        }
        if (b >= 0x20) {
            return 0;
        }
        return switch (b) {
            case '\b', '\t', '\n', '\f', '\r' -> 1;
            default -> 5;
        };
    }

    /*
     * Exact per-byte masks (bit 7 of each byte that matches, nothing else), for the bytes of a word below 0x80; a
     * byte of a multi-byte UTF-8 sequence (0x80 and above) never matches.
     */

    /** The bytes of {@code word} that are {@code "} or {@code \}. */
    static long quoteOrBackslash(long word) {
        return (equal(word, ONES * '"') | equal(word, ONES * '\\')) & ~word;
    }

    /** The bytes of {@code word} below 0x20. */
    static long control(long word) {
        return ~((word & LOWS) + ONES * (0x80 - 0x20)) & ~word & HIGHS;
    }

    private static long equal(long word, long pattern) {
        long x = (word & LOWS) ^ pattern;
        return ~((x + LOWS) | x) & HIGHS;
    }
}
