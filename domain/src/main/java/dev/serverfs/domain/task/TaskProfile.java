package dev.serverfs.domain.task;

import java.util.Arrays;
import java.util.Optional;

/**
 * A task's profile (reference §3.12). {@code workspace-write} tasks hold the slot's writer lease for their whole
 * life; {@code review} tasks take none. The rank is compared with the workdir's agent mode.
 */
public enum TaskProfile {
    REVIEW("review", 1),
    WORKSPACE_WRITE("workspace-write", 2);

    private final String wire;
    private final int rank;

    TaskProfile(String wire, int rank) {
        this.wire = wire;
        this.rank = rank;
    }

    public String wire() {
        return wire;
    }

    public int rank() {
        return rank;
    }

    public boolean holdsWriterLease() {
        return this == WORKSPACE_WRITE;
    }

    public static Optional<TaskProfile> fromWire(String value) {
        return Arrays.stream(values()).filter(p -> p.wire.equals(value)).findFirst();
    }
}
