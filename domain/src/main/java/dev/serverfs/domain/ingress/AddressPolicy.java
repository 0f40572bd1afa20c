package dev.serverfs.domain.ingress;

import java.util.List;
import java.util.Objects;

/**
 * Decides whether a resolved address is globally routable and therefore fetchable (v0.5 plan §7 rule 5). Every
 * IANA special-purpose IPv4 and IPv6 range is refused; IPv6 is accepted only inside global unicast
 * {@code 2000::/3}; IPv4-mapped and NAT64 {@code 64:ff9b::/96} addresses are judged by their embedded IPv4
 * address. Works on raw address bytes and never resolves a name.
 */
public final class AddressPolicy {

    /** IPv4 special-purpose ranges (IANA IPv4 Special-Purpose Address Registry, plus multicast and reserved). */
    private static final List<Cidr> IPV4_NOT_GLOBAL = List.of(
            Cidr.v4(0, 0, 0, 0, 8), // "this network" (RFC 791)
            Cidr.v4(10, 0, 0, 0, 8), // private (RFC 1918)
            Cidr.v4(100, 64, 0, 0, 10), // shared address space / CGN (RFC 6598)
            Cidr.v4(127, 0, 0, 0, 8), // loopback (RFC 1122)
            Cidr.v4(169, 254, 0, 0, 16), // link local (RFC 3927)
            Cidr.v4(172, 16, 0, 0, 12), // private (RFC 1918)
            Cidr.v4(192, 0, 0, 0, 24), // IETF protocol assignments (RFC 6890)
            Cidr.v4(192, 0, 2, 0, 24), // documentation TEST-NET-1 (RFC 5737)
            Cidr.v4(192, 88, 99, 0, 24), // deprecated 6to4 relay anycast (RFC 7526)
            Cidr.v4(192, 168, 0, 0, 16), // private (RFC 1918)
            Cidr.v4(198, 18, 0, 0, 15), // benchmarking (RFC 2544)
            Cidr.v4(198, 51, 100, 0, 24), // documentation TEST-NET-2 (RFC 5737)
            Cidr.v4(203, 0, 113, 0, 24), // documentation TEST-NET-3 (RFC 5737)
            Cidr.v4(224, 0, 0, 0, 4), // multicast (RFC 5771)
            Cidr.v4(240, 0, 0, 0, 4)); // reserved (RFC 1112), includes 255.255.255.255 broadcast

    /** IPv6 ranges inside {@code 2000::/3} that are still not global (IANA IPv6 Special-Purpose Registry). */
    private static final List<Cidr> IPV6_GLOBAL_UNICAST_EXCEPTIONS = List.of(
            Cidr.v6(new int[] {0x2001, 0}, 23), // IETF protocol assignments incl. Teredo, ORCHID (RFC 2928)
            Cidr.v6(new int[] {0x2001, 0x0db8}, 32), // documentation (RFC 3849)
            Cidr.v6(new int[] {0x2002}, 16), // 6to4 (RFC 3056; deprecated RFC 7526)
            Cidr.v6(new int[] {0x3fff, 0}, 20)); // documentation (RFC 9637)

    private static final Cidr IPV6_GLOBAL_UNICAST = Cidr.v6(new int[] {0x2000}, 3);
    private static final Cidr IPV4_MAPPED = Cidr.v6(new int[] {0, 0, 0, 0, 0, 0xffff}, 96);
    private static final Cidr NAT64_WELL_KNOWN = Cidr.v6(new int[] {0x64, 0xff9b, 0, 0, 0, 0}, 96);

    private AddressPolicy() {}

    /** True when the 4- or 16-byte address may be connected to; any other length is refused. */
    public static boolean isGlobal(byte[] address) {
        Objects.requireNonNull(address, "address");
        if (address.length == 4) {
            return IPV4_NOT_GLOBAL.stream().noneMatch(c -> c.contains(address));
        }
        if (address.length != 16) {
            return false;
        }
        if (IPV4_MAPPED.contains(address) || NAT64_WELL_KNOWN.contains(address)) {
            // The packet really goes to the embedded IPv4 host (RFC 4291 §2.5.5.2, RFC 6052 §2.1).
            byte[] embedded = new byte[4];
            System.arraycopy(address, 12, embedded, 0, 4);
            return isGlobal(embedded);
        }
        // Everything outside 2000::/3 is special or unassigned: ::, ::1, IPv4-compatible ::/96, 64:ff9b:1::/48,
        // 100::/64, 5f00::/16, fc00::/7, fe80::/10, fec0::/10, ff00::/8 ...
        return IPV6_GLOBAL_UNICAST.contains(address)
                && IPV6_GLOBAL_UNICAST_EXCEPTIONS.stream().noneMatch(c -> c.contains(address));
    }

    /** A network prefix over raw address bytes. */
    private record Cidr(byte[] prefix, int bits) {

        static Cidr v4(int a, int b, int c, int d, int bits) {
            return new Cidr(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d}, bits);
        }

        /** {@code groups} are the leading 16-bit groups; the rest is zero. */
        static Cidr v6(int[] groups, int bits) {
            byte[] bytes = new byte[16];
            for (int i = 0; i < groups.length; i++) {
                bytes[2 * i] = (byte) (groups[i] >>> 8);
                bytes[2 * i + 1] = (byte) groups[i];
            }
            return new Cidr(bytes, bits);
        }

        boolean contains(byte[] address) {
            if (address.length != prefix.length) {
                return false;
            }
            int full = bits / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != prefix[i]) {
                    return false;
                }
            }
            int rest = bits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (address[full] & mask) == (prefix[full] & mask);
        }
    }
}
