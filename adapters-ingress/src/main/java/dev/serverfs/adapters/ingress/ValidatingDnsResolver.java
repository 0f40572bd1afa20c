package dev.serverfs.adapters.ingress;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.apache.hc.client5.http.DnsResolver;

/**
 * HttpClient's resolver: looks the name up and returns the answer only when every address passes the filter
 * (production: {@code AddressPolicy.isGlobal} of the address bytes), so HttpClient can only ever connect to validated addresses
 * (v0.5 plan §7 rules 5–6). One bad address rejects the whole answer, which defeats mixed-answer rebinding.
 */
final class ValidatingDnsResolver implements DnsResolver {

    private final HostLookup lookup;
    private final Predicate<InetAddress> allowed;

    ValidatingDnsResolver(HostLookup lookup, Predicate<InetAddress> allowed) {
        this.lookup = Objects.requireNonNull(lookup, "lookup");
        this.allowed = Objects.requireNonNull(allowed, "allowed");
    }

    @Override
    public List<InetSocketAddress> resolve(String host, int port) throws UnknownHostException {
        List<InetSocketAddress> answer;
        try {
            answer = List.copyOf(lookup.lookup(host, port));
        } catch (SecurityException | IllegalArgumentException e) {
            throw new UnknownHostException("host did not resolve");
        }
        if (answer.isEmpty()) {
            throw new UnknownHostException("host did not resolve");
        }
        for (InetSocketAddress address : answer) {
            if (address.isUnresolved() || !allowed.test(address.getAddress())) {
                throw new RefusedAddressException();
            }
        }
        return answer;
    }

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        return resolve(host, 0).stream().map(InetSocketAddress::getAddress).toArray(InetAddress[]::new);
    }

    @Override
    public String resolveCanonicalHostname(String host) {
        // Never used for TLS or routing decisions; the original host name is what gets verified.
        return host;
    }
}
