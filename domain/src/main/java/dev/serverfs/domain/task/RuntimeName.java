package dev.serverfs.domain.task;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The wire name of an agent runtime (reference §7): what callers send ({@code submit_agent_task.runtime}), what
 * workdirs allow ({@code WORKDIR_<n>_AGENT_RUNTIMES}) and what a task stores. Only its shape is checked here (lower
 * case, at most 32 characters); which runtimes exist is the provider modules' descriptors' business, so a
 * well-formed name that no descriptor claims is never a runtime, whatever a workdir or a caller says.
 */
public record RuntimeName(String wire) {

    private static final Pattern SHAPE = Pattern.compile("[a-z][a-z0-9_-]{0,31}");

    public RuntimeName {
        Objects.requireNonNull(wire, "wire");
        if (!SHAPE.matcher(wire).matches()) {
            throw new IllegalArgumentException("a runtime name is lower case, at most 32 characters");
        }
    }

    /** The runtime name {@code wire}; throws on a malformed name (for names written in code). */
    public static RuntimeName of(String wire) {
        return new RuntimeName(wire);
    }

    /** The runtime name of this exact (case-sensitive) text, empty when it is not a well-formed name. */
    public static Optional<RuntimeName> fromWire(String wire) {
        Objects.requireNonNull(wire, "wire");
        return SHAPE.matcher(wire).matches() ? Optional.of(new RuntimeName(wire)) : Optional.empty();
    }

    @Override
    public String toString() {
        return wire;
    }
}
