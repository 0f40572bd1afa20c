package dev.serverfs.domain.ingress;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.net.IDN;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;

/**
 * A download URL that passed the URL rules of the v0.5 plan §7 and contract reference §8: scheme {@code https},
 * a host name, no userinfo, no fragment, port 443 (implicit or explicit). The host is IDNA-encoded to ASCII,
 * lower-cased and stripped of one trailing dot; an IP literal is kept in its textual form without brackets.
 * {@link #toString()} never shows the URL, because URLs must not reach logs.
 *
 * @param host normalised host (ASCII, lower case, no trailing dot, IPv6 literals without brackets)
 * @param pathAndQuery the raw request target, {@code /} when the URL has no path
 */
public record IngressUrl(String host, String pathAndQuery) {

    public static final int PORT = 443;

    public IngressUrl {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(pathAndQuery, "pathAndQuery");
    }

    /** Parses and normalises {@code raw}, or fails with {@code FILE_INGRESS_URL_NOT_ALLOWED}. */
    public static IngressUrl parse(String raw) {
        if (raw == null || raw.isEmpty() || raw.length() > 16_384) {
            throw notAllowed();
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c <= 0x20 || c == 0x7f) {
                throw notAllowed();
            }
        }
        URI uri;
        try {
            uri = new URI(raw);
        } catch (URISyntaxException e) {
            throw notAllowed();
        }
        if (uri.isOpaque() || !"https".equalsIgnoreCase(uri.getScheme()) || uri.getRawFragment() != null) {
            throw notAllowed();
        }
        String authority = uri.getRawAuthority();
        if (authority == null || authority.isEmpty() || authority.indexOf('@') >= 0) {
            throw notAllowed();
        }
        String host = normaliseHost(hostPart(authority));
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String query = uri.getRawQuery();
        return new IngressUrl(host, query == null ? path : path + "?" + query);
    }

    /**
     * Resolves a redirect {@code Location} against this URL (RFC 3986 §5.2) and validates the result exactly like
     * an initial URL (v0.5 plan §7 rule 7).
     */
    public IngressUrl resolve(String location) {
        if (location == null || location.isEmpty()) {
            throw notAllowed();
        }
        URI reference;
        try {
            reference = new URI(location);
        } catch (URISyntaxException e) {
            throw notAllowed();
        }
        if (reference.isAbsolute()) {
            return parse(location);
        }
        String base = toUriString();
        if (location.startsWith("?")) {
            // java.net.URI follows RFC 2396 here (drops the last path segment); RFC 3986 keeps the whole path.
            int q = base.indexOf('?');
            return parse((q < 0 ? base : base.substring(0, q)) + location);
        }
        try {
            return parse(new URI(base).resolve(reference).toString());
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw notAllowed();
        }
    }

    /** True when the host is an IPv4 or IPv6 literal rather than a DNS name. */
    public boolean hostIsLiteral() {
        return IpLiteral.parse(host).isPresent();
    }

    /** The absolute URL to request, with the normalised host and implicit port 443. */
    public String toUriString() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return "https://" + h + pathAndQuery;
    }

    @Override
    public String toString() {
        return "IngressUrl[redacted]";
    }

    /** Normalises a configured or requested host name, or fails with {@code FILE_INGRESS_URL_NOT_ALLOWED}. */
    static String normaliseHost(String rawHost) {
        String host = rawHost;
        if (host.startsWith("[") && host.endsWith("]") && host.length() > 2) {
            String inner = host.substring(1, host.length() - 1);
            if (inner.indexOf(':') < 0) {
                throw notAllowed();
            }
            return IpLiteral.canonical(inner).orElseThrow(IngressUrl::notAllowed);
        }
        if (host.endsWith(".")) {
            host = host.substring(0, host.length() - 1);
        }
        if (host.isEmpty() || host.indexOf('%') >= 0 || host.indexOf('[') >= 0 || host.indexOf(':') >= 0) {
            throw notAllowed();
        }
        String ascii;
        try {
            ascii = IDN.toASCII(host, IDN.USE_STD3_ASCII_RULES);
        } catch (IllegalArgumentException e) {
            throw notAllowed();
        }
        ascii = ascii.toLowerCase(Locale.ROOT);
        if (ascii.isEmpty() || ascii.length() > 253 || ascii.startsWith(".") || ascii.contains("..")) {
            throw notAllowed();
        }
        // One spelling per address, so that "2130706433" cannot slip past an allow-list entry "127.0.0.1".
        return IpLiteral.canonical(ascii).orElse(ascii);
    }

    private static String hostPart(String authority) {
        String host;
        String port = null;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw notAllowed();
            }
            host = authority.substring(0, close + 1);
            String rest = authority.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw notAllowed();
                }
                port = rest.substring(1);
            }
        } else {
            int colon = authority.lastIndexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            port = colon < 0 ? null : authority.substring(colon + 1);
        }
        if (port != null && !isPort443(port)) {
            throw notAllowed();
        }
        return host;
    }

    private static boolean isPort443(String port) {
        if (port.isEmpty() || port.length() > 5) {
            return false;
        }
        for (int i = 0; i < port.length(); i++) {
            if (port.charAt(i) < '0' || port.charAt(i) > '9') {
                return false;
            }
        }
        return Integer.parseInt(port) == PORT;
    }

    private static ServerFsException notAllowed() {
        return new ServerFsException(ErrorCode.FILE_INGRESS_URL_NOT_ALLOWED, "download URL is not allowed");
    }
}
