package dev.serverfs.domain.ingress;

import java.util.Objects;

/**
 * The sidecar's fetch policy (v0.5 plan §11, contract reference §9.4): allowed hosts, its own byte ceiling and
 * the redirect cap. The sidecar is deliberately workdir-unaware; per-workdir limits are the MCP side's business.
 *
 * @param hosts allowed hosts
 * @param maxBytes the sidecar's ceiling, positive
 * @param maxRedirects how many redirects one fetch may follow, zero or more
 */
public record SidecarPolicy(HostPolicy hosts, long maxBytes, int maxRedirects) {

    public SidecarPolicy {
        Objects.requireNonNull(hosts, "hosts");
        if (maxBytes <= 0 || maxRedirects < 0) {
            throw new IllegalArgumentException("maxBytes must be positive and maxRedirects non-negative");
        }
    }

    /** The effective limit of one request: {@code min(requested, maxBytes)} (reference §8). */
    public long effectiveLimit(long requested) {
        if (requested <= 0) {
            throw new IllegalArgumentException("requested limit must be positive");
        }
        return Math.min(requested, maxBytes);
    }
}
