package dev.serverfs.adapters.ingress;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.hc.client5.http.DnsResolver;

/**
 * HttpClient's resolver: looks the name up and returns the answer only when every address passes the filter
 * (production: {@code AddressPolicy.isGlobal} of the address bytes), so HttpClient can only ever connect to validated addresses
 * (v0.5 plan §7 rules 5–6). One bad address rejects the whole answer, which defeats mixed-answer rebinding.
 */
final class ValidatingDnsResolver implements DnsResolver {

    /**
     * When the fetch under way must have its answer ({@link System#nanoTime}), bound by {@link ApacheHttpsFetcher}: the
     * system resolver's own timeouts (resolv.conf's, per attempt and server) can outlast it, and its lookup is not
     * interruptible. Unbound, a lookup takes as long as it takes.
     */
    static final ScopedValue<Long> DEADLINE = ScopedValue.newInstance();

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
            answer = List.copyOf(lookupInTime(host, port));
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

    /**
     * The lookup, on a thread of its own when a {@link #DEADLINE} is bound: when the deadline comes first, the fetch
     * fails as a name that did not resolve, and the lookup is left to end alone.
     */
    private List<InetSocketAddress> lookupInTime(String host, int port) throws UnknownHostException {
        if (!DEADLINE.isBound()) {
            return lookup.lookup(host, port);
        }
        FutureTask<List<InetSocketAddress>> task = new FutureTask<>(() -> lookup.lookup(host, port));
        Thread.ofVirtual().name("ingress-lookup").start(task);
        try {
            return task.get(Math.max(0, DEADLINE.get() - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            task.cancel(true);
            throw new UnknownHostException("host did not resolve in time");
        } catch (InterruptedException e) {
            task.cancel(true);
            Thread.currentThread().interrupt();
            throw new UnknownHostException("interrupted while resolving");
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case UnknownHostException unknown -> throw unknown;
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new UnknownHostException("host did not resolve");
            }
        }
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
