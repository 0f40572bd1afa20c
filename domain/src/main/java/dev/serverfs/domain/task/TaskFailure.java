package dev.serverfs.domain.task;

import dev.serverfs.domain.error.ErrorCode;
import java.util.Objects;

/** Why a task ended {@code failed} or {@code interrupted}: the stored {@code error_code} and agent-safe message. */
public record TaskFailure(ErrorCode code, String message) {
    public TaskFailure {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
    }
}
