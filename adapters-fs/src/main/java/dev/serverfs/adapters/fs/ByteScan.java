package dev.serverfs.adapters.fs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte-level scans of {@link FileScanner}'s line buffer, eight bytes at a time (SWAR: a {@code long} read from the
 * array, bytes compared by carry-free arithmetic). Stateless and thread-safe.
 */
final class ByteScan {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long LOWS = 0x7F7F7F7F7F7F7F7FL;
    private static final long NEWLINES = ONES * '\n';

    private ByteScan() {}

    /** The high bit of each byte of the result is set exactly where that byte of {@code x} is zero. */
    private static long zeros(long x) {
        return ~(((x & LOWS) + LOWS) | x) & HIGHS;
    }

    private static long word(byte[] b, int at) {
        return (long) LONGS.get(b, at);
    }

    /** Whether {@code b[from, to)} holds a NUL byte. */
    static boolean hasNul(byte[] b, int from, int to) {
        int i = from;
        for (; i + 32 <= to; i += 32) {
            long v0 = word(b, i);
            long v1 = word(b, i + 8);
            long v2 = word(b, i + 16);
            long v3 = word(b, i + 24);
            // (v - ONES) & ~v has a high bit set in some byte iff v has a zero byte (the lowest one is exact).
            long any = ((v0 - ONES) & ~v0) | ((v1 - ONES) & ~v1) | ((v2 - ONES) & ~v2) | ((v3 - ONES) & ~v3);
            if ((any & HIGHS) != 0) {
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

    /** The number of {@code \n} bytes in {@code b[from, to)}. */
    static long countNewlines(byte[] b, int from, int to) {
        long count = 0;
        int i = from;
        for (; i + 32 <= to; i += 32) {
            long z0 = zeros(word(b, i) ^ NEWLINES);
            long z1 = zeros(word(b, i + 8) ^ NEWLINES);
            long z2 = zeros(word(b, i + 16) ^ NEWLINES);
            long z3 = zeros(word(b, i + 24) ^ NEWLINES);
            // Bits 7, 6, 5 and 4 of each byte: distinct positions, so one population count sums the four.
            count += Long.bitCount(z0 | (z1 >>> 1) | (z2 >>> 2) | (z3 >>> 3));
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                count++;
            }
        }
        return count;
    }

    /** The index of the first {@code \n} in {@code b[from, to)}, or {@code to}. */
    static int nextNewline(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long z = zeros(word(b, i) ^ NEWLINES);
            if (z != 0) {
                return i + (Long.numberOfTrailingZeros(z) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return to;
    }

    /** The index after the last {@code \n} in {@code b[0, before)} (the start of the line holding {@code before}). */
    static int lineStart(byte[] b, int before) {
        int i = before - 1;
        while (i >= 0 && b[i] != '\n') {
            i--;
        }
        return i + 1;
    }

    /** The index of the first byte {@code >= 0x80} in {@code b[from, to)}, or {@code to}. */
    static int nextNonAscii(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long high = word(b, i) & HIGHS;
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
     * unchanged.
     */
    static void lowerAscii(byte[] src, byte[] dst, int n) {
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long v = word(src, i);
            long heptets = v & LOWS;
            // The high bit is set in bytes >= 'A' and in bytes > 'Z' (7-bit sums: no carry between bytes).
            long atLeastA = heptets + ONES * (0x80 - 'A');
            long aboveZ = heptets + ONES * (0x80 - 'Z' - 1);
            long upper = (atLeastA ^ aboveZ) & ~v & HIGHS;
            LONGS.set(dst, i, v | (upper >>> 2));
        }
        for (; i < n; i++) {
            byte c = src[i];
            dst[i] = c >= 'A' && c <= 'Z' ? (byte) (c + ('a' - 'A')) : c;
        }
    }
}
