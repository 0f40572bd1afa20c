package dev.serverfs.domain.task;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The nine task states with their wire names and the frozen v0.3 transition table (reference §3.11). The last
 * four are terminal and have no successor.
 */
public enum TaskStatus {
    QUEUED("queued"),
    STARTING("starting"),
    RUNNING("running"),
    WAITING_FOR_APPROVAL("waiting_for_approval"),
    WAITING_FOR_QUESTION("waiting_for_question"),
    SUCCEEDED("succeeded"),
    FAILED("failed"),
    CANCELLED("cancelled"),
    INTERRUPTED("interrupted");

    private static final Map<TaskStatus, Set<TaskStatus>> TRANSITIONS = transitions();

    private final String wire;

    TaskStatus(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** Exact, case-sensitive match on the wire name. */
    public static Optional<TaskStatus> fromWire(String value) {
        return Arrays.stream(values()).filter(s -> s.wire.equals(value)).findFirst();
    }

    public boolean isTerminal() {
        return switch (this) {
            case QUEUED, STARTING, RUNNING, WAITING_FOR_APPROVAL, WAITING_FOR_QUESTION -> false;
            case SUCCEEDED, FAILED, CANCELLED, INTERRUPTED -> true;
        };
    }

    public boolean isWaiting() {
        return this == WAITING_FOR_APPROVAL || this == WAITING_FOR_QUESTION;
    }

    /** The states this one may move to; empty for terminal states. */
    public Set<TaskStatus> successors() {
        return TRANSITIONS.get(this);
    }

    public boolean canMoveTo(TaskStatus next) {
        return TRANSITIONS.get(this).contains(next);
    }

    /** Throws {@code INVALID_TASK_TRANSITION} unless the table allows {@code this -> next}. */
    public void requireMoveTo(TaskStatus next) {
        if (!canMoveTo(next)) {
            throw new ServerFsException(
                    ErrorCode.INVALID_TASK_TRANSITION, "cannot move task from " + wire + " to " + next.wire);
        }
    }

    private static Map<TaskStatus, Set<TaskStatus>> transitions() {
        EnumMap<TaskStatus, Set<TaskStatus>> table = new EnumMap<>(TaskStatus.class);
        table.put(QUEUED, frozen(EnumSet.of(STARTING, CANCELLED, INTERRUPTED)));
        table.put(STARTING, frozen(EnumSet.of(RUNNING, FAILED, CANCELLED, INTERRUPTED)));
        table.put(
                RUNNING,
                frozen(EnumSet.of(
                        WAITING_FOR_APPROVAL, WAITING_FOR_QUESTION, SUCCEEDED, FAILED, CANCELLED, INTERRUPTED)));
        table.put(WAITING_FOR_APPROVAL, frozen(EnumSet.of(RUNNING, CANCELLED, INTERRUPTED)));
        table.put(WAITING_FOR_QUESTION, frozen(EnumSet.of(RUNNING, CANCELLED, INTERRUPTED)));
        for (TaskStatus terminal : EnumSet.of(SUCCEEDED, FAILED, CANCELLED, INTERRUPTED)) {
            table.put(terminal, frozen(EnumSet.noneOf(TaskStatus.class)));
        }
        return Collections.unmodifiableMap(table);
    }

    private static Set<TaskStatus> frozen(EnumSet<TaskStatus> set) {
        return Collections.unmodifiableSet(set);
    }
}
