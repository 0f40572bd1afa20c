package dev.serverfs.domain.task;

import static dev.serverfs.domain.task.TaskStatus.CANCELLED;
import static dev.serverfs.domain.task.TaskStatus.FAILED;
import static dev.serverfs.domain.task.TaskStatus.INTERRUPTED;
import static dev.serverfs.domain.task.TaskStatus.QUEUED;
import static dev.serverfs.domain.task.TaskStatus.RUNNING;
import static dev.serverfs.domain.task.TaskStatus.STARTING;
import static dev.serverfs.domain.task.TaskStatus.SUCCEEDED;
import static dev.serverfs.domain.task.TaskStatus.WAITING_FOR_APPROVAL;
import static dev.serverfs.domain.task.TaskStatus.WAITING_FOR_QUESTION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TaskStatusTest {
    /** Reference §3.11, written out independently of the production table. */
    private static final Map<TaskStatus, Set<TaskStatus>> EXPECTED = Map.of(
            QUEUED, EnumSet.of(STARTING, CANCELLED, INTERRUPTED),
            STARTING, EnumSet.of(RUNNING, FAILED, CANCELLED, INTERRUPTED),
            RUNNING, EnumSet.of(WAITING_FOR_APPROVAL, WAITING_FOR_QUESTION, SUCCEEDED, FAILED, CANCELLED, INTERRUPTED),
            WAITING_FOR_APPROVAL, EnumSet.of(RUNNING, CANCELLED, INTERRUPTED),
            WAITING_FOR_QUESTION, EnumSet.of(RUNNING, CANCELLED, INTERRUPTED),
            SUCCEEDED, EnumSet.noneOf(TaskStatus.class),
            FAILED, EnumSet.noneOf(TaskStatus.class),
            CANCELLED, EnumSet.noneOf(TaskStatus.class),
            INTERRUPTED, EnumSet.noneOf(TaskStatus.class));

    @Test
    void every_pair_of_states_follows_the_frozen_table() {
        for (TaskStatus from : TaskStatus.values()) {
            for (TaskStatus to : TaskStatus.values()) {
                boolean allowed = EXPECTED.get(from).contains(to);
                assertEquals(allowed, from.canMoveTo(to), from + " -> " + to);
                if (!allowed) {
                    ServerFsException e = assertThrows(ServerFsException.class, () -> from.requireMoveTo(to));
                    assertEquals(ErrorCode.INVALID_TASK_TRANSITION, e.code());
                }
            }
        }
    }

    @Test
    void wire_names_are_the_contract_strings_and_terminal_states_are_the_last_four() {
        assertEquals(
                List.of(
                        "queued",
                        "starting",
                        "running",
                        "waiting_for_approval",
                        "waiting_for_question",
                        "succeeded",
                        "failed",
                        "cancelled",
                        "interrupted"),
                Arrays.stream(TaskStatus.values()).map(TaskStatus::wire).toList());
        assertEquals(
                EnumSet.of(SUCCEEDED, FAILED, CANCELLED, INTERRUPTED),
                EnumSet.copyOf(Arrays.stream(TaskStatus.values())
                        .filter(TaskStatus::isTerminal)
                        .toList()));
        assertEquals(Optional.of(WAITING_FOR_QUESTION), TaskStatus.fromWire("waiting_for_question"));
        assertEquals(Optional.empty(), TaskStatus.fromWire("Queued"));
    }

    @Test
    void the_table_cannot_be_modified() {
        assertThrows(
                UnsupportedOperationException.class, () -> RUNNING.successors().add(QUEUED));
    }
}
