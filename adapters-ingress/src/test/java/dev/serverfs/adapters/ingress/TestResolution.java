package dev.serverfs.adapters.ingress;

import dev.serverfs.domain.ingress.AddressPolicy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Test-only name resolution: {@code *.test} names map to the local HTTPS servers (real port, although URLs say
 * 443), {@code private.test} to 10.0.0.1 and {@code mixed.test} to one good and one private address. The address
 * filter is the production {@link AddressPolicy} plus exactly {@code 127.0.0.1}, so every policy refusal is real.
 */
final class TestResolution {

    static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");
    static final Predicate<InetAddress> ALLOWED = a -> a.equals(LOOPBACK) || AddressPolicy.isGlobal(a.getAddress());
    static final String HOSTS = "files.test,hop.test,wrong.test,untrusted.test,private.test,mixed.test,nowhere.test";

    private TestResolution() {}

    static HostLookup lookup(int trustedPort, int untrustedPort) {
        Map<String, List<InetSocketAddress>> table = Map.of(
                "files.test", List.of(new InetSocketAddress(LOOPBACK, trustedPort)),
                "hop.test", List.of(new InetSocketAddress(LOOPBACK, trustedPort)),
                "wrong.test", List.of(new InetSocketAddress(LOOPBACK, trustedPort)),
                "untrusted.test", List.of(new InetSocketAddress(LOOPBACK, untrustedPort)),
                "private.test", List.of(new InetSocketAddress(InetAddress.ofLiteral("10.0.0.1"), 443)),
                "mixed.test",
                        List.of(
                                new InetSocketAddress(LOOPBACK, trustedPort),
                                new InetSocketAddress(InetAddress.ofLiteral("192.168.1.1"), 443)));
        return (host, port) -> {
            List<InetSocketAddress> answer = table.get(host);
            if (answer == null) {
                throw new UnknownHostException("test resolver does not know the name");
            }
            return answer;
        };
    }

    static ApacheHttpsFetcher fetcher(Duration timeout, int trustedPort, int untrustedPort) {
        return new ApacheHttpsFetcher(
                timeout, TestTls.TRUSTED.clientContext(), lookup(trustedPort, untrustedPort), ALLOWED);
    }
}
