package dev.serverfs.adapters.ingress;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/**
 * Name resolution seam of the HTTPS fetcher. Production asks the system resolver; tests map their host names to
 * loopback servers (with the port of the test server, since URLs are always port 443).
 */
@FunctionalInterface
interface HostLookup {

    List<InetSocketAddress> lookup(String host, int port) throws UnknownHostException;

    /** The operating system's resolver ({@link InetAddress#getAllByName}; literals are parsed, not looked up). */
    static HostLookup system() {
        return (host, port) -> Arrays.stream(InetAddress.getAllByName(host))
                .map(a -> new InetSocketAddress(a, port))
                .toList();
    }
}
