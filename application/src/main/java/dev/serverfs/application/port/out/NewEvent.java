package dev.serverfs.application.port.out;

import java.time.Instant;
import java.util.Objects;

/** An event to append in the same transaction as a task update (see {@link TaskStore}). */
public record NewEvent(String eventType, String payloadJson, Instant createdAt) {

    public NewEvent {
        Objects.requireNonNull(eventType, "eventType");
        Objects.requireNonNull(payloadJson, "payloadJson");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
