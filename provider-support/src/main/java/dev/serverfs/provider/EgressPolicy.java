package dev.serverfs.provider;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Where a provider child may connect through the {@link EgressRelay}: an allow-list of {@code host:port} entries and
 * the ports of ServerFS' own listeners, which no entry opens on a local address.
 *
 * <p>An entry is <em>explicit</em> when the operator named it (an endpoint variable such as {@code
 * ANTHROPIC_BASE_URL}, or {@code SERVERFS_AGENT_EGRESS_ALLOW}): it is reached wherever it resolves, loopback and
 * private ranges included. The providers' default hosts ({@link #DEFAULT_HOSTS}) are not: a name of theirs that
 * resolves to a loopback, private, link-local or otherwise non-public address is refused, so a resolver cannot turn
 * one into a way to the host's own services. Names are resolved here, on the host, never in the view.
 */
public record EgressPolicy(List<Entry> entries, Set<Integer> ownPorts, Upstream upstream) {
    /**
     * The providers' own endpoints, allowed by default: the APIs and the login hosts their credentials are refreshed
     * at (Codex: the OpenAI API, ChatGPT's backend and its auth host; Claude Code: the Anthropic API and its OAuth
     * hosts).
     */
    public static final List<String> DEFAULT_HOSTS = List.of(
            "api.openai.com:443",
            "chatgpt.com:443",
            "auth.openai.com:443",
            "api.anthropic.com:443",
            "console.anthropic.com:443",
            "platform.claude.com:443");

    /** The variables that name a provider's endpoint; an entry of each is explicit. */
    public static final List<String> ENDPOINT_VARIABLES = List.of("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL");

    /** One allowed {@code host:port}; {@code host} lower-case, IPv6 literals without brackets. */
    public record Entry(String host, int port, boolean explicit) {}

    /**
     * The proxies the host itself must use ({@code HTTPS_PROXY} for tunnels, {@code HTTP_PROXY} for plain requests,
     * either case; {@code http://} proxies only) and the names {@code NO_PROXY} exempts ({@code *}, a name and its
     * subdomains, an IP literal; no CIDR ranges).
     */
    public record Upstream(Optional<URI> https, Optional<URI> http, List<String> noProxy) {
        public static final Upstream NONE = new Upstream(Optional.empty(), Optional.empty(), List.of());

        public Upstream {
            Objects.requireNonNull(https, "https");
            Objects.requireNonNull(http, "http");
            noProxy = List.copyOf(noProxy);
        }

        /** From the server's environment: the upper-case name wins over the lower-case one. */
        public static Upstream of(Map<String, String> environment) {
            List<String> noProxy = new ArrayList<>();
            for (String item :
                    first(environment, "NO_PROXY", "no_proxy").orElse("").split(",")) {
                String n = item.strip().toLowerCase(Locale.ROOT);
                if (!n.isEmpty()) {
                    noProxy.add(n);
                }
            }
            return new Upstream(
                    first(environment, "HTTPS_PROXY", "https_proxy").flatMap(Upstream::proxy),
                    first(environment, "HTTP_PROXY", "http_proxy").flatMap(Upstream::proxy),
                    noProxy);
        }

        private static Optional<String> first(Map<String, String> environment, String upper, String lower) {
            return Optional.ofNullable(environment.get(upper))
                    .or(() -> Optional.ofNullable(environment.get(lower)))
                    .filter(v -> !v.isBlank());
        }

        /** An {@code http://host[:port]} proxy ({@code host:port} alone is read as such); anything else: none. */
        private static Optional<URI> proxy(String value) {
            String v = value.strip();
            try {
                URI uri = new URI(v.contains("://") ? v : "http://" + v);
                if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
                    return Optional.empty();
                }
                return Optional.of(uri);
            } catch (java.net.URISyntaxException e) {
                return Optional.empty();
            }
        }

        /** The proxy to reach {@code host} through: a tunnel's or a plain request's, unless NO_PROXY exempts it. */
        public Optional<URI> forTarget(boolean tunnel, String host) {
            Optional<URI> proxy = tunnel ? https : http;
            if (proxy.isEmpty()) {
                return proxy;
            }
            String h = host.toLowerCase(Locale.ROOT);
            for (String n : noProxy) {
                String name = n.startsWith(".") ? n.substring(1) : n;
                if (n.equals("*") || h.equals(name) || h.endsWith("." + name)) {
                    return Optional.empty();
                }
            }
            return proxy;
        }
    }

    public EgressPolicy {
        entries = List.copyOf(entries);
        ownPorts = Set.copyOf(ownPorts);
        Objects.requireNonNull(upstream, "upstream");
    }

    /** No upstream proxy. */
    public EgressPolicy(List<Entry> entries, Set<Integer> ownPorts) {
        this(entries, ownPorts, Upstream.NONE);
    }

    /** Nothing is allowed. */
    public static EgressPolicy none() {
        return new EgressPolicy(List.of(), Set.of());
    }

    /**
     * The default hosts, the endpoints {@code environment} names ({@link #ENDPOINT_VARIABLES}; one that is not an
     * {@code http} or {@code https} URL is ignored) and the operator's {@code extra} entries ({@code host:port}), with
     * {@code ownPorts} closed on local addresses.
     *
     * @throws IllegalArgumentException when an {@code extra} entry is not {@code host:port}
     */
    public static EgressPolicy of(Map<String, String> environment, List<String> extra, Set<Integer> ownPorts) {
        return of(environment, extra, ownPorts, Upstream.NONE);
    }

    /** {@link #of(Map, List, Set)} sent through {@code upstream} where it names a proxy. */
    public static EgressPolicy of(
            Map<String, String> environment, List<String> extra, Set<Integer> ownPorts, Upstream upstream) {
        List<Entry> entries = new ArrayList<>();
        for (String e : DEFAULT_HOSTS) {
            entries.add(parse(e, false).orElseThrow());
        }
        for (String variable : ENDPOINT_VARIABLES) {
            Optional.ofNullable(environment.get(variable))
                    .flatMap(EgressPolicy::endpoint)
                    .ifPresent(entries::add);
        }
        for (String e : extra) {
            entries.add(parse(e, true).orElseThrow(() -> new IllegalArgumentException("not host:port")));
        }
        return new EgressPolicy(entries, ownPorts, upstream);
    }

    /** {@code host:port} (an IPv6 literal in brackets) as an entry; empty when it is not of that form. */
    public static Optional<Entry> parse(String hostPort, boolean explicit) {
        String s = hostPort.strip();
        int colon = s.lastIndexOf(':');
        if (colon <= 0 || colon == s.length() - 1) {
            return Optional.empty();
        }
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            return Optional.empty();
        }
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (host.isEmpty() || port < 1 || port > 65535 || !host.matches("[A-Za-z0-9.:_-]+")) {
            return Optional.empty();
        }
        return Optional.of(new Entry(host.toLowerCase(Locale.ROOT), port, explicit));
    }

    /** The explicit entry of an {@code http}/{@code https} URL (its port, else the scheme's); empty otherwise. */
    static Optional<Entry> endpoint(String url) {
        try {
            URI uri = new URI(url.strip());
            String scheme = Optional.ofNullable(uri.getScheme()).orElse("").toLowerCase(Locale.ROOT);
            if (uri.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
                return Optional.empty();
            }
            int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
            return parse(uri.getHost() + ":" + port, true);
        } catch (java.net.URISyntaxException e) {
            return Optional.empty();
        }
    }

    /**
     * The address to connect to for {@code host:port}, resolved on the host; empty when the policy refuses it: no
     * entry allows it, it would reach one of ServerFS' own ports on a local address, or a default entry resolves only
     * to non-public addresses.
     */
    public Optional<InetAddress> admit(String host, int port) {
        String wanted = bare(host);
        Optional<Entry> entry = entry(wanted, port);
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(wanted);
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
        for (InetAddress a : addresses) {
            if (ownPorts.contains(port) && local(a)) {
                continue;
            }
            if (!entry.get().explicit() && !publicAddress(a)) {
                continue;
            }
            return Optional.of(a);
        }
        return Optional.empty();
    }

    /**
     * Whether {@code host:port} may be asked of an upstream proxy, which resolves the name itself: an entry allows it
     * and, when it is an IP literal (or {@code localhost}), it is neither one of ServerFS' own ports on a local
     * address nor, for a default entry, a non-public address.
     */
    public boolean admitsName(String host, int port) {
        String wanted = bare(host);
        Optional<Entry> entry = entry(wanted, port);
        if (entry.isEmpty()) {
            return false;
        }
        Optional<InetAddress> literal;
        try {
            literal = wanted.equals("localhost")
                    ? Optional.of(InetAddress.getLoopbackAddress())
                    : wanted.matches("[0-9.]+|.*:.*") ? Optional.of(InetAddress.ofLiteral(wanted)) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return false;
        }
        return literal.map(a ->
                        !(ownPorts.contains(port) && local(a)) && (entry.get().explicit() || publicAddress(a)))
                .orElse(true);
    }

    /** {@code host} in lower case, without the brackets of an IPv6 literal. */
    private static String bare(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    }

    /** The entry that allows {@code host:port} (an operator's, explicit, before a default one), if any. */
    private Optional<Entry> entry(String host, int port) {
        return entries.stream()
                .filter(e -> e.host().equals(host) && e.port() == port)
                .reduce((a, b) -> a.explicit() ? a : b);
    }

    /** Loopback, the wildcard, or an address of one of this host's interfaces. */
    static boolean local(InetAddress a) {
        if (a.isLoopbackAddress() || a.isAnyLocalAddress()) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            return true;
        }
    }

    /** Not loopback, wildcard, link-local, site-local (RFC 1918), unique-local (fc00::/7), CGNAT or multicast. */
    static boolean publicAddress(InetAddress a) {
        if (a.isLoopbackAddress()
                || a.isAnyLocalAddress()
                || a.isLinkLocalAddress()
                || a.isSiteLocalAddress()
                || a.isMulticastAddress()) {
            return false;
        }
        byte[] b = a.getAddress();
        if (a instanceof Inet6Address) {
            return (b[0] & 0xfe) != 0xfc; // fc00::/7
        }
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        return first != 0 && !(first == 100 && second >= 64 && second < 128); // 0/8, 100.64/10
    }

    /** For logs: how many entries, never which, and never a proxy's credentials. */
    @Override
    public String toString() {
        return "EgressPolicy[" + entries.size() + " entries, upstream="
                + upstream.https().isPresent() + "]";
    }
}
