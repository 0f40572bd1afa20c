package dev.serverfs.adapters.sqlite.convert;

import dev.serverfs.domain.task.TaskStatus;

/** {@code tasks.status}: the contract's state name ({@code waiting_for_approval}). */
public final class TaskStatusConverter extends TextColumnConverter<TaskStatus> {
    public TaskStatusConverter() {
        super(TaskStatus.class, "task status");
    }

    @Override
    TaskStatus decode(String stored) {
        return TaskStatus.fromWire(stored).orElseThrow(IllegalArgumentException::new);
    }

    @Override
    String encode(TaskStatus value) {
        return value.wire();
    }
}
