package dev.serverfs.domain.task;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@code list_agent_runtimes} reports for one runtime (reference §3.1). {@code unavailableReason}, only on an
 * unavailable runtime, says why in words an operator can act on (issue 25: the provider view cannot be built); it
 * never names a host path.
 */
public record RuntimeInfo(
        String name,
        boolean available,
        Optional<String> version,
        boolean persistentSession,
        boolean liveSteer,
        boolean interactiveApproval,
        boolean interactiveQuestion,
        InFlightRecovery inFlightRecovery,
        Optional<String> unavailableReason) {

    public RuntimeInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(inFlightRecovery, "inFlightRecovery");
        Objects.requireNonNull(unavailableReason, "unavailableReason");
        if (available && unavailableReason.isPresent()) {
            throw new IllegalArgumentException("an available runtime has no unavailable reason");
        }
    }

    /** An available runtime (or one whose probe failed without a reason to give). */
    public RuntimeInfo(
            String name,
            boolean available,
            Optional<String> version,
            boolean persistentSession,
            boolean liveSteer,
            boolean interactiveApproval,
            boolean interactiveQuestion,
            InFlightRecovery inFlightRecovery) {
        this(
                name,
                available,
                version,
                persistentSession,
                liveSteer,
                interactiveApproval,
                interactiveQuestion,
                inFlightRecovery,
                Optional.empty());
    }

    /** A runtime whose probe failed: {@code {name, available: false}}. */
    public static RuntimeInfo unavailable(String name) {
        return new RuntimeInfo(name, false, Optional.empty(), false, false, false, false, InFlightRecovery.NONE);
    }

    /** A runtime that cannot be used for {@code reason}: {@code {name, available: false, unavailable_reason}}. */
    public static RuntimeInfo unavailable(String name, String reason) {
        return new RuntimeInfo(
                name, false, Optional.empty(), false, false, false, false, InFlightRecovery.NONE, Optional.of(reason));
    }
}
