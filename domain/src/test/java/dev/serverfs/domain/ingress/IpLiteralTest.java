package dev.serverfs.domain.ingress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The domain's address-literal parser against the JDK's {@code InetAddress.ofLiteral}, which it replaces. */
class IpLiteralTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "1.2.3.4              | 1.2.3.4",
                "01.02.03.004         | 1.2.3.4",
                "2130706433           | 127.0.0.1",
                "1                    | 0.0.0.1",
                "1.2                  | 1.0.0.2",
                "1.2.3                | 1.2.0.3",
                "1.16777215           | 1.255.255.255",
                "4294967295           | 255.255.255.255",
                "::                   | 0:0:0:0:0:0:0:0",
                "::1                  | 0:0:0:0:0:0:0:1",
                "1::                  | 1:0:0:0:0:0:0:0",
                "2606:4700:4700::1111 | 2606:4700:4700:0:0:0:0:1111",
                "2606:4700:4700::AbCd | 2606:4700:4700:0:0:0:0:abcd",
                "1:2:3:4:5:6:7:8      | 1:2:3:4:5:6:7:8",
                "1:2:3:4:5:6:1.2.3.4  | 1:2:3:4:5:6:102:304",
                "::1.2.3.4            | 0:0:0:0:0:0:102:304",
                "::ffff:1.2.3.4       | 1.2.3.4",
                "::FFFF:7f00:1        | 127.0.0.1",
                "0:0:0:0:0:ffff:102:304 | 1.2.3.4",
                "::ffff:0:1.2.3.4     | 0:0:0:0:ffff:0:102:304",
            })
    void ordinary_literals_are_spelled_as_the_jdk_spells_them(String literal, String canonical) {
        assertEquals(Optional.of(canonical), IpLiteral.canonical(literal));
        assertEquals(canonical, InetAddress.ofLiteral(literal).getHostAddress());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "4294967296",
                "1.16777216",
                "256.1.1.1",
                "1..2",
                "1.2.3.4.",
                "1.2.3.4.5",
                "0x1",
                "0001.0002.0003.0004",
                "1:2:3:4:5:6:7:8:9",
                "1:2:3:4:5:6:7:8::",
                "::1:2:3:4:5:6:7:8",
                "1::2::3",
                ":1::",
                ":::",
                "12345::",
                "::1.2.3",
                "1:2:3:4:5:6:7:1.2.3.4",
                "::ffff:1.2.3.4.",
                "1.2.3.4::",
                "g::",
                "example.com",
                "fe80::1%1",
                "\uff11.2.3.4",
            })
    void other_text_is_not_a_literal(String text) {
        assertEquals(Optional.empty(), IpLiteral.parse(text));
    }

    /**
     * Whatever the domain accepts, the JDK accepts as the same address with the same spelling: a literal can never
     * mean one address to the policy and another to the connection. Strings are drawn from the characters literals are
     * made of, so most are near misses.
     */
    @Test
    void every_accepted_string_means_the_same_address_to_the_jdk() {
        Random random = new Random(20261201);
        int accepted = 0;
        for (int i = 0; i < 200_000; i++) {
            String candidate = random.nextBoolean() ? nearIpv4(random) : nearIpv6(random);
            Optional<byte[]> ours = IpLiteral.parse(candidate);
            if (ours.isEmpty()) {
                continue;
            }
            accepted++;
            InetAddress jdk = InetAddress.ofLiteral(candidate);
            assertEquals(jdk.getHostAddress(), IpLiteral.canonical(candidate).orElseThrow(), candidate);
            byte[] jdkBytes = jdk.getAddress();
            byte[] ourBytes = ours.get();
            if (jdkBytes.length == 4 && ourBytes.length == 16) {
                ourBytes = java.util.Arrays.copyOfRange(ourBytes, 12, 16); // the JDK folds IPv4-mapped to IPv4
            }
            assertArrayEquals(jdkBytes, ourBytes, candidate);
        }
        assertTrue(accepted > 1_000, "the generator produced too few literals to compare: " + accepted);
    }

    private static String nearIpv4(Random random) {
        StringBuilder text = new StringBuilder();
        int parts = 1 + random.nextInt(5);
        for (int p = 0; p < parts; p++) {
            text.append(p == 0 ? "" : ".").append(digits(random, "0123456789", random.nextInt(12)));
        }
        return text.toString();
    }

    private static String nearIpv6(Random random) {
        StringBuilder text = new StringBuilder();
        int groups = 1 + random.nextInt(9);
        int gap = random.nextInt(groups + 2); // often no "::" at all
        for (int g = 0; g < groups; g++) {
            text.append(g == 0 ? "" : ":").append(g == gap ? ":" : "");
            text.append(digits(random, "0123456789abcdefABCDEF", random.nextInt(6)));
        }
        if (random.nextInt(4) == 0) {
            text.append(':').append(nearIpv4(random));
        }
        return text.toString();
    }

    private static String digits(Random random, String alphabet, int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }
}
