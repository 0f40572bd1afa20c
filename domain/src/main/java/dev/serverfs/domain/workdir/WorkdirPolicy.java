package dev.serverfs.domain.workdir;

import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The effective, immutable policy of one workdir, resolved once at start-up from the global settings and
 * the slot's overrides (contract reference §2.0, §9.2). Extra deny globs are the union of global and
 * workdir globs: an override can only tighten.
 */
public record WorkdirPolicy(
        boolean allowHidden,
        boolean disableDefaultDeny,
        List<String> extraDenyGlobs,
        int maxReadBytes,
        int maxReadLines,
        int maxWriteBytes,
        boolean binaryTransferEnabled,
        long maxBinaryTransferBytes,
        AgentMode agentMode,
        SortedSet<String> agentRuntimes) {

    public WorkdirPolicy {
        extraDenyGlobs = List.copyOf(extraDenyGlobs);
        Objects.requireNonNull(agentMode, "agentMode");
        agentRuntimes = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(agentRuntimes));
        requirePositive(maxReadBytes, "maxReadBytes");
        requirePositive(maxReadLines, "maxReadLines");
        requirePositive(maxWriteBytes, "maxWriteBytes");
        requirePositive(maxBinaryTransferBytes, "maxBinaryTransferBytes");
    }

    private static void requirePositive(long value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive");
        }
    }
}
