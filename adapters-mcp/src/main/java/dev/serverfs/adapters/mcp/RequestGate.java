package dev.serverfs.adapters.mcp;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The checks that run before any MCP dispatch (reference §1.4, CONTRACT.md §4). Host: the loopback names with
 * the bound port, or an exact {@code SERVERFS_ALLOWED_HOSTS} value (else 421). Origin: absent is fine; otherwise
 * it must be (in any case) a configured origin or the server's own loopback origin on the bound port — a DNS-rebinding page
 * always carries the attacker's host in Origin, so this one can not be forged from a browser (else 403). Token:
 * when configured, {@code Authorization: Bearer <token>}, compared in constant time (else 401).
 */
final class RequestGate {

    private static final Set<String> LOOPBACK_NAMES = Set.of("127.0.0.1", "localhost", "[::1]");

    private final Set<String> hosts;
    private final Set<String> origins;
    private final Optional<byte[]> tokenDigest;

    RequestGate(int boundPort, Set<String> allowedHosts, Set<String> allowedOrigins, Optional<String> token) {
        Set<String> h = new HashSet<>();
        Set<String> o = new HashSet<>();
        for (String name : LOOPBACK_NAMES) {
            h.add(name + ":" + boundPort);
            o.add("http://" + name + ":" + boundPort);
        }
        allowedHosts.forEach(v -> h.add(v.toLowerCase(Locale.ROOT)));
        allowedOrigins.forEach(v -> o.add(v.toLowerCase(Locale.ROOT)));
        this.hosts = Set.copyOf(h);
        this.origins = Set.copyOf(o);
        this.tokenDigest = token.map(RequestGate::digest);
    }

    boolean hostAllowed(String host) {
        // Host names are case-insensitive (RFC 9110 §4.2.3); the port must match exactly.
        return host != null && hosts.contains(host.toLowerCase(Locale.ROOT));
    }

    boolean originAllowed(String origin) {
        // An origin is a scheme, a host and a port (RFC 6454): all three compare case-insensitively.
        return origin == null || origin.isEmpty() || origins.contains(origin.toLowerCase(Locale.ROOT));
    }

    boolean authorized(String authorization) {
        if (tokenDigest.isEmpty()) {
            return true;
        }
        String presented = "";
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            presented = authorization.substring(7).strip();
        }
        // Digests have a fixed length, so the comparison time does not depend on the token's length or content.
        return MessageDigest.isEqual(digest(presented), tokenDigest.get());
    }

    private static byte[] digest(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
