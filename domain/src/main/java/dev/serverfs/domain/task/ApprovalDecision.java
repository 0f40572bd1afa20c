package dev.serverfs.domain.task;

import java.util.Arrays;
import java.util.Optional;

/** The four approval decisions (reference §3.6). There are no permanent approvals. */
public enum ApprovalDecision {
    APPROVE_ONCE("approve_once"),
    APPROVE_SESSION("approve_session"),
    DENY("deny"),
    CANCEL_TASK("cancel_task");

    private final String wire;

    ApprovalDecision(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<ApprovalDecision> fromWire(String value) {
        return Arrays.stream(values()).filter(d -> d.wire.equals(value)).findFirst();
    }
}
