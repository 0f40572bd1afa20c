package dev.serverfs.domain.task;

import java.util.Objects;
import java.util.Optional;

/** Provider-native session and turn ids; recorded as they become known, never shown to the agent. */
public record NativeIds(Optional<String> sessionId, Optional<String> turnId) {
    public static final NativeIds NONE = new NativeIds(Optional.empty(), Optional.empty());

    public NativeIds {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(turnId, "turnId");
    }
}
