package dev.serverfs.domain.task;

import java.util.Arrays;
import java.util.Optional;

/** Where a final response lives (reference §3.16): inline in the task row, or spooled to a result file. */
public enum ResultStorage {
    INLINE("inline"),
    SPOOL("spool");

    private final String wire;

    ResultStorage(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<ResultStorage> fromWire(String value) {
        return Arrays.stream(values()).filter(s -> s.wire.equals(value)).findFirst();
    }
}
