package dev.serverfs.domain.task;

import java.util.Arrays;
import java.util.Optional;

/** The normalized event types of envelope schema 1 (reference §3.13); the wire strings are defined here only. */
public enum EventType {
    TASK_STARTED("task.started"),
    TURN_STARTED("turn.started"),
    AGENT_MESSAGE("agent.message"),
    ITEM_STARTED("item.started"),
    ITEM_COMPLETED("item.completed"),
    COMMAND_STARTED("command.started"),
    FILE_CHANGE_STARTED("file_change.started"),
    TOOL_STARTED("tool.started"),
    PROVIDER_ERROR("provider.error"),
    APPROVAL_REQUESTED("approval.requested"),
    QUESTION_REQUESTED("question.requested"),
    APPROVAL_ADVICE("approval.advice"),
    APPROVAL_RESOLVED("approval.resolved"),
    QUESTION_ANSWERED("question.answered"),
    INTERACTION_EXPIRED("interaction.expired"),
    INTERACTION_STALE("interaction.stale"),
    USER_MESSAGE("user.message"),
    TASK_CANCELLED("task.cancelled"),
    TASK_INTERRUPTED("task.interrupted"),
    TASK_FAILED("task.failed"),
    TASK_RESULT_SPOOLED("task.result_spooled"),
    TASK_COMPLETED("task.completed"),
    TASK_PREFLIGHT("task.preflight"),
    TASK_ROUTING_ADVICE("task.routing_advice"),
    RUNTIME_RECONCILE_STARTED("runtime.reconcile_started"),
    RUNTIME_RECONCILE_FINISHED("runtime.reconcile_finished"),
    TASK_RECONCILED("task.reconciled");

    private final String wire;

    EventType(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<EventType> fromWire(String value) {
        return Arrays.stream(values()).filter(t -> t.wire.equals(value)).findFirst();
    }
}
