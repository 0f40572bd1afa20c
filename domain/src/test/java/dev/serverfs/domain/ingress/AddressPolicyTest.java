package dev.serverfs.domain.ingress;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AddressPolicyTest {

    /** First, an inner and the last address of every special-purpose range named in the v0.5 plan §7 task. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                // IPv4
                "0.0.0.0",
                "0.1.2.3",
                "0.255.255.255",
                "10.0.0.0",
                "10.1.2.3",
                "10.255.255.255",
                "100.64.0.0",
                "100.100.1.1",
                "100.127.255.255",
                "127.0.0.0",
                "127.0.0.1",
                "127.255.255.255",
                "169.254.0.0",
                "169.254.169.254",
                "169.254.255.255",
                "172.16.0.0",
                "172.20.1.1",
                "172.31.255.255",
                "192.0.0.0",
                "192.0.0.9",
                "192.0.0.255",
                "192.0.2.0",
                "192.0.2.77",
                "192.0.2.255",
                "192.88.99.0",
                "192.88.99.1",
                "192.88.99.255",
                "192.168.0.0",
                "192.168.1.1",
                "192.168.255.255",
                "198.18.0.0",
                "198.19.1.1",
                "198.19.255.255",
                "198.51.100.0",
                "198.51.100.7",
                "198.51.100.255",
                "203.0.113.0",
                "203.0.113.9",
                "203.0.113.255",
                "224.0.0.0",
                "224.0.0.251",
                "239.255.255.255",
                "240.0.0.0",
                "250.1.2.3",
                "255.255.255.254",
                "255.255.255.255",
                // IPv6
                "::",
                "::1",
                "::ffff:0.0.0.0",
                "::ffff:127.0.0.1",
                "::ffff:10.0.0.1",
                "::ffff:169.254.169.254",
                "::ffff:192.168.1.1",
                "64:ff9b::",
                "64:ff9b::7f00:1",
                "64:ff9b::a00:1",
                "64:ff9b::c0a8:101",
                "64:ff9b:1::",
                "64:ff9b:1::808:808",
                "64:ff9b:1:ffff:ffff:ffff:ffff:ffff",
                "100::",
                "100::1",
                "100::ffff:ffff:ffff:ffff",
                "2001::",
                "2001::1",
                "2001:0:4136:e378:8000:63bf:3fff:fdd2",
                "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff",
                "2001:db8::",
                "2001:db8::1",
                "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
                "2002::",
                "2002:7f00:1::",
                "2002:a00:1::1",
                "2002:808:808::1",
                "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                "fc00::",
                "fd12:3456:789a::1",
                "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                "fe80::",
                "fe80::1",
                "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                "fec0::",
                "fec0::1",
                "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                "ff00::",
                "ff02::1",
                "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                "::127.0.0.1",
                "::10.0.0.1",
                "::8.8.8.8",
                "::ffff",
                "3fff::",
                "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff",
                "5f00::1",
                "4000::1",
                "1::1",
                "e000::1",
            })
    void special_purpose_addresses_are_not_global(String address) {
        assertFalse(AddressPolicy.isGlobal(bytes(address)), address);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "1.1.1.1",
                "8.8.8.8",
                "9.255.255.255",
                "11.0.0.0",
                "100.63.255.255",
                "100.128.0.0",
                "126.255.255.255",
                "128.0.0.0",
                "169.253.255.255",
                "169.255.0.0",
                "172.15.255.255",
                "172.32.0.0",
                "191.255.255.255",
                "192.0.1.0",
                "192.0.3.0",
                "192.88.98.255",
                "192.88.100.0",
                "192.167.255.255",
                "192.169.0.0",
                "198.17.255.255",
                "198.20.0.0",
                "198.51.99.255",
                "198.51.101.0",
                "203.0.112.255",
                "203.0.114.0",
                "223.255.255.255",
                "20.150.1.1",
                "2000::",
                "2001:200::1",
                "2001:4860:4860::8888",
                "2003::1",
                "2606:4700:4700::1111",
                "2a01:111:f100::1",
                "3ffe:ffff::1",
                "3fff:1000::1",
                "::ffff:8.8.8.8",
                "64:ff9b::808:808",
            })
    void global_addresses_are_accepted(String address) {
        assertTrue(AddressPolicy.isGlobal(bytes(address)), address);
    }

    @Test
    void addresses_of_other_lengths_are_refused() {
        assertFalse(AddressPolicy.isGlobal(new byte[0]));
        assertFalse(AddressPolicy.isGlobal(new byte[] {8, 8, 8}));
    }

    /** The 4 or 16 bytes of an address literal (IPv6 forms stay 16 bytes, as the resolver hands them over). */
    static byte[] bytes(String literal) {
        return IpLiteral.parse(literal).orElseThrow(() -> new IllegalArgumentException(literal));
    }
}
