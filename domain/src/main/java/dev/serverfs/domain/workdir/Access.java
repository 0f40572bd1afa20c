package dev.serverfs.domain.workdir;

/** Whether mutation tools may act in a workdir (contract reference §9.2 {@code READ_ONLY}). */
public enum Access {
    READ_ONLY("read-only"),
    READ_WRITE("read-write");

    private final String wire;

    Access(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
