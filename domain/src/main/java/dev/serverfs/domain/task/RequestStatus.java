package dev.serverfs.domain.task;

import java.util.Arrays;
import java.util.Optional;

/** A pending request's status (reference §5 {@code pending_requests.status}). Only {@code pending} can change. */
public enum RequestStatus {
    PENDING("pending"),
    RESOLVED("resolved"),
    STALE("stale");

    private final String wire;

    RequestStatus(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<RequestStatus> fromWire(String value) {
        return Arrays.stream(values()).filter(s -> s.wire.equals(value)).findFirst();
    }
}
