package dev.serverfs.domain.workdir;

import java.time.Duration;
import java.util.Objects;

/**
 * Global, workdir-independent limits of the filesystem tools (contract reference §9.1). Values are already
 * parsed and positive.
 */
public record ServerLimits(
        int defaultListLimit,
        int maxListEntries,
        int defaultSearchResults,
        int maxSearchResults,
        int maxWalkEntries,
        Duration searchTimeout,
        long searchMaxFileBytes,
        int maxEditsPerCall) {

    /**
     * Directory levels a walk ({@code find_files}, {@code search_text}) descends below its root (issue 10 §3): a
     * directory that deep is reported but not entered, and the result says {@code truncated}. It bounds the open
     * descriptors of a walk (one per level) and keeps one pathological chain (an Agent can create one) from failing
     * a whole-workdir search; real source trees are far shallower.
     */
    public static final int MAX_WALK_DEPTH = 256;

    /**
     * The most UTF-8 bytes of paths and line texts one {@code search_text} answer carries (issue 10 §4c): matches
     * past it are left out and the result is {@code truncated}. With lines cut to {@code LineExcerpt.MAX_BYTES} it
     * only binds for long paths; it keeps the answer bounded whatever the limits.
     */
    public static final int SEARCH_RESPONSE_MAX_BYTES = 256 * 1024;

    public static final ServerLimits DEFAULTS =
            new ServerLimits(100, 500, 50, 100, 200_000, Duration.ofSeconds(15), 52_428_800L, 50);

    public ServerLimits {
        Objects.requireNonNull(searchTimeout, "searchTimeout");
        if (defaultListLimit <= 0
                || maxListEntries <= 0
                || defaultSearchResults <= 0
                || maxSearchResults <= 0
                || maxWalkEntries <= 0
                || searchMaxFileBytes <= 0
                || maxEditsPerCall <= 0
                || searchTimeout.isNegative()
                || searchTimeout.isZero()) {
            throw new IllegalArgumentException("limits must be positive");
        }
    }

    /** Effective list limit: requested (or default) clamped to {@code 1..maxListEntries} (reference §2.2). */
    public int listLimit(Integer requested) {
        int cap = maxListEntries;
        int wanted = requested == null ? Math.min(defaultListLimit, cap) : requested;
        return Math.max(1, Math.min(wanted, cap));
    }

    /** Effective search/find limit, clamped to {@code maxSearchResults} (reference §2.3, §2.4). */
    public int searchLimit(Integer requested) {
        int cap = maxSearchResults;
        int wanted = requested == null ? Math.min(defaultSearchResults, cap) : requested;
        return Math.max(1, Math.min(wanted, cap));
    }
}
