package dev.serverfs.domain.task;

import java.util.Objects;
import java.util.Optional;

/**
 * The agent runtimes ServerFS can run (reference §7), by their wire names. The wire name is what callers send
 * ({@code submit_agent_task.runtime}), what workdirs allow ({@code WORKDIR_<n>_AGENT_RUNTIMES}) and what a task
 * stores; a name outside this set is never a runtime, whatever a workdir or a caller says.
 */
public enum RuntimeName {
    /** OpenAI Codex through {@code codex app-server}. */
    CODEX("codex", false),
    /** Claude Code through its stream-json CLI. */
    CLAUDE("claude", false),
    /** The scripted runtime of the tests ({@code SERVERFS_AGENT_ENABLE_FAKE_RUNTIME=true}). */
    FAKE("fake", true);

    private final String wire;
    private final boolean testOnly;

    RuntimeName(String wire, boolean testOnly) {
        this.wire = wire;
        this.testOnly = testOnly;
    }

    public String wire() {
        return wire;
    }

    /** Offered only when the test-only runtime is enabled; never to a production caller. */
    public boolean testOnly() {
        return testOnly;
    }

    /** The runtime of this exact (case-sensitive) wire name. */
    public static Optional<RuntimeName> fromWire(String wire) {
        Objects.requireNonNull(wire, "wire");
        for (RuntimeName name : values()) {
            if (name.wire.equals(wire)) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return wire;
    }
}
