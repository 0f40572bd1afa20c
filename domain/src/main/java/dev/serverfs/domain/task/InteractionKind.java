package dev.serverfs.domain.task;

import java.util.Arrays;
import java.util.Optional;

/** The two kinds of human interaction a provider can ask for (reference §3.14). */
public enum InteractionKind {
    APPROVAL("approval"),
    QUESTION("question");

    private final String wire;

    InteractionKind(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<InteractionKind> fromWire(String value) {
        return Arrays.stream(values()).filter(k -> k.wire.equals(value)).findFirst();
    }
}
