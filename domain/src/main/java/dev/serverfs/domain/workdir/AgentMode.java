package dev.serverfs.domain.workdir;

import java.util.Arrays;
import java.util.Optional;

/**
 * A workdir's Agent delegation mode (contract reference §3.12). Ranks order the modes so a task profile
 * may never exceed its workdir's mode.
 */
public enum AgentMode {
    DISABLED("disabled", 0),
    REVIEW("review", 1),
    WORKSPACE_WRITE("workspace-write", 2);

    private final String wire;
    private final int rank;

    AgentMode(String wire, int rank) {
        this.wire = wire;
        this.rank = rank;
    }

    public String wire() {
        return wire;
    }

    public int rank() {
        return rank;
    }

    /** Exact, case-sensitive match on the wire name. */
    public static Optional<AgentMode> fromWire(String value) {
        return Arrays.stream(values()).filter(m -> m.wire.equals(value)).findFirst();
    }
}
