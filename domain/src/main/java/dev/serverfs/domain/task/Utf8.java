package dev.serverfs.domain.task;

/** UTF-8 boundary arithmetic for result previews and chunks (reference §3.5, §3.16). */
public final class Utf8 {
    private Utf8() {}

    /** True when {@code b} is a continuation byte ({@code 10xxxxxx}), i.e. not the start of a character. */
    public static boolean isContinuation(byte b) {
        return (b & 0xC0) == 0x80;
    }

    /**
     * The largest length {@code <= max} such that {@code bytes[0..length)} ends on a character boundary, assuming
     * {@code bytes} itself starts on one and is well-formed UTF-8.
     */
    public static int safePrefixLength(byte[] bytes, int max) {
        if (max >= bytes.length) {
            return bytes.length;
        }
        int cut = max;
        while (cut > 0 && isContinuation(bytes[cut])) {
            cut--;
        }
        return cut;
    }

    /**
     * Like {@link #safePrefixLength} for a slice whose following bytes are unknown: drops a trailing character
     * whose encoding is cut off by the end of {@code bytes}.
     */
    public static int completeLength(byte[] bytes) {
        int len = bytes.length;
        int lead = len - 1;
        while (lead >= 0 && isContinuation(bytes[lead])) {
            lead--;
        }
        if (lead < 0) {
            return 0;
        }
        int need = sequenceLength(bytes[lead]);
        return lead + need <= len ? len : lead;
    }

    private static int sequenceLength(byte lead) {
        int b = lead & 0xFF;
        if (b < 0x80) {
            return 1;
        }
        if (b >= 0xF0) {
            return 4;
        }
        if (b >= 0xE0) {
            return 3;
        }
        return 2;
    }
}
