package dev.serverfs.domain.task;

import java.util.Objects;
import java.util.Optional;

/** What {@code list_agent_runtimes} reports for one runtime (reference §3.1). */
public record RuntimeInfo(
        String name,
        boolean available,
        Optional<String> version,
        boolean persistentSession,
        boolean liveSteer,
        boolean interactiveApproval,
        boolean interactiveQuestion,
        InFlightRecovery inFlightRecovery) {

    public RuntimeInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(inFlightRecovery, "inFlightRecovery");
    }

    /** A runtime whose probe failed: {@code {name, available: false}}. */
    public static RuntimeInfo unavailable(String name) {
        return new RuntimeInfo(name, false, Optional.empty(), false, false, false, false, InFlightRecovery.NONE);
    }
}
