package dev.serverfs.domain.task;

/** How a runtime can recover a turn in flight after a restart (reference §3.1). */
public enum InFlightRecovery {
    NONE("none"),
    SESSION_RESUME("session-resume"),
    NATIVE("native");

    private final String wire;

    InFlightRecovery(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
