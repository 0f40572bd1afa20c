package dev.serverfs.application.port.out;

import dev.serverfs.domain.workdir.PathPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A literal content search (reference §2.4): the query, case sensitivity, an optional ripgrep-style glob filter,
 * the number of valid matches after which the search stops ({@code limit + 1}), the wall-clock budget, the
 * per-file size ceiling, and the workdir's path policy that every reported path must pass.
 */
public record TextSearch(
        String query,
        boolean caseSensitive,
        Optional<String> glob,
        int stopAfter,
        Duration timeout,
        long maxFileBytes,
        PathPolicy policy) {

    public TextSearch {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(glob, "glob");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(policy, "policy");
        if (stopAfter < 1 || maxFileBytes < 1) {
            throw new IllegalArgumentException("stopAfter and maxFileBytes must be positive");
        }
    }
}
