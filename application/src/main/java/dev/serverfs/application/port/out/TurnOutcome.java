package dev.serverfs.application.port.out;

import dev.serverfs.domain.task.NativeIds;
import java.util.Objects;

/** A turn that ended normally: the provider's final response text and its native ids. */
public record TurnOutcome(String finalResponse, NativeIds nativeIds) {
    public TurnOutcome {
        Objects.requireNonNull(finalResponse, "finalResponse");
        Objects.requireNonNull(nativeIds, "nativeIds");
    }

    @Override
    public String toString() {
        return "TurnOutcome[bytes=" + finalResponse.length() + "]";
    }
}
