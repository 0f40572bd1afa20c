package dev.serverfs.domain.ingress;

import java.util.Optional;

/**
 * IPv4 and IPv6 address literals as pure text processing (the domain never touches {@code java.net.InetAddress}, so
 * nothing here can ever consult DNS). Accepts the forms the JDK's {@code InetAddress.ofLiteral} accepts for ordinary
 * input — IPv4 {@code d}, {@code d.d}, {@code d.d.d}, {@code d.d.d.d} in decimal; IPv6 with at most one {@code ::},
 * groups of 1–4 hex digits and an optional dotted-quad tail — and spells the result the way the JDK does, an
 * IPv4-mapped IPv6 address as its IPv4 address. It is stricter on exotic spellings (IPv6 groups of more than four
 * digits, scope ids): those are not literals here, which at worst refuses a URL the JDK would have parsed.
 */
final class IpLiteral {

    /** The JDK refuses longer IPv4 spellings; so do we. */
    private static final int MAX_IPV4_LENGTH = 15;

    private IpLiteral() {}

    /** The literal's canonical text, or empty when {@code text} is not an address literal. */
    static Optional<String> canonical(String text) {
        return parse(text).map(IpLiteral::format);
    }

    /** The address bytes (4 or 16) of {@code text}, or empty when it is not an address literal. */
    static Optional<byte[]> parse(String text) {
        byte[] bytes = text.indexOf(':') >= 0 ? ipv6(text) : ipv4(text, false);
        return Optional.ofNullable(bytes);
    }

    /**
     * {@code d.d.d.d}, or with {@code dottedQuadOnly} false also {@code d}, {@code d.d}, {@code d.d.d}, where the
     * last part fills the remaining bytes.
     */
    private static byte[] ipv4(String text, boolean dottedQuadOnly) {
        if (text.isEmpty() || text.length() > MAX_IPV4_LENGTH) {
            return null;
        }
        String[] parts = text.split("\\.", -1);
        if (parts.length > 4 || (dottedQuadOnly && parts.length != 4)) {
            return null;
        }
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            values[i] = decimal(parts[i]);
            if (values[i] < 0) {
                return null;
            }
        }
        byte[] bytes = new byte[4];
        int leading = parts.length - 1;
        for (int i = 0; i < leading; i++) {
            if (values[i] > 0xff) {
                return null;
            }
            bytes[i] = (byte) values[i];
        }
        int restBytes = 4 - leading;
        long last = values[leading];
        if (last >= (1L << (8 * restBytes))) {
            return null;
        }
        for (int i = 3; i >= leading; i--) {
            bytes[i] = (byte) last;
            last >>>= 8;
        }
        return bytes;
    }

    /** The value of a non-empty run of ASCII decimal digits, or -1. */
    private static long decimal(String part) {
        if (part.isEmpty()) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static byte[] ipv6(String text) {
        int gap = text.indexOf("::");
        if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        String head = gap < 0 ? text : text.substring(0, gap);
        String tail = gap < 0 ? "" : text.substring(gap + 2);
        int[] headGroups = groups(head, gap < 0);
        int[] tailGroups = groups(tail, true);
        if (headGroups == null || tailGroups == null) {
            return null;
        }
        int count = headGroups.length + tailGroups.length;
        if (gap < 0 ? count != 8 : count > 7) {
            return null;
        }
        byte[] bytes = new byte[16];
        for (int i = 0; i < headGroups.length; i++) {
            put(bytes, i, headGroups[i]);
        }
        for (int i = 0; i < tailGroups.length; i++) {
            put(bytes, 8 - tailGroups.length + i, tailGroups[i]);
        }
        return bytes;
    }

    /**
     * The 16-bit groups of one side of {@code ::} (empty allowed), the last of them possibly a dotted quad that counts
     * as two groups when {@code mayEndInIpv4}; null when malformed.
     */
    private static int[] groups(String side, boolean mayEndInIpv4) {
        if (side.isEmpty()) {
            return new int[0];
        }
        String[] parts = side.split(":", -1);
        byte[] ipv4 = null;
        int hexParts = parts.length;
        if (mayEndInIpv4 && parts[parts.length - 1].indexOf('.') >= 0) {
            ipv4 = ipv4(parts[parts.length - 1], true);
            if (ipv4 == null) {
                return null;
            }
            hexParts--;
        }
        int[] groups = new int[hexParts + (ipv4 == null ? 0 : 2)];
        for (int i = 0; i < hexParts; i++) {
            groups[i] = hex(parts[i]);
            if (groups[i] < 0) {
                return null;
            }
        }
        if (ipv4 != null) {
            groups[hexParts] = ((ipv4[0] & 0xff) << 8) | (ipv4[1] & 0xff);
            groups[hexParts + 1] = ((ipv4[2] & 0xff) << 8) | (ipv4[3] & 0xff);
        }
        return groups;
    }

    /** The value of one to four ASCII hex digits, or -1. */
    private static int hex(String group) {
        if (group.isEmpty() || group.length() > 4) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < group.length(); i++) {
            int digit = Character.digit(group.charAt(i), 16);
            if (digit < 0 || group.charAt(i) > 'f') {
                return -1;
            }
            value = value * 16 + digit;
        }
        return value;
    }

    private static void put(byte[] bytes, int group, int value) {
        bytes[2 * group] = (byte) (value >>> 8);
        bytes[2 * group + 1] = (byte) value;
    }

    /** IPv4 as a dotted quad; IPv4-mapped IPv6 as its IPv4 address; other IPv6 as eight uncompressed hex groups. */
    private static String format(byte[] bytes) {
        if (bytes.length == 16 && isIpv4Mapped(bytes)) {
            return format(java.util.Arrays.copyOfRange(bytes, 12, 16));
        }
        StringBuilder text = new StringBuilder(39);
        if (bytes.length == 4) {
            for (int i = 0; i < 4; i++) {
                text.append(i == 0 ? "" : ".").append(bytes[i] & 0xff);
            }
            return text.toString();
        }
        for (int group = 0; group < 8; group++) {
            int value = ((bytes[2 * group] & 0xff) << 8) | (bytes[2 * group + 1] & 0xff);
            text.append(group == 0 ? "" : ":").append(Integer.toHexString(value));
        }
        return text.toString();
    }

    private static boolean isIpv4Mapped(byte[] bytes) {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    }
}
