package dev.serverfs.domain.task;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Arrays;

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

    /** The decision with this wire name; anything else (including null) is {@code INVALID_APPROVAL_DECISION}. */
    public static ApprovalDecision parse(String value) {
        return Arrays.stream(values())
                .filter(d -> d.wire.equals(value))
                .findFirst()
                .orElseThrow(() -> new ServerFsException(ErrorCode.INVALID_APPROVAL_DECISION, "unknown decision"));
    }
}
