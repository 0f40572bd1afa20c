package dev.serverfs.adapters.sqlite.convert;

import dev.serverfs.domain.task.TaskId;

/** Every task id column ({@code agt_} and 24 hex digits). */
public final class TaskIdConverter extends TextColumnConverter<TaskId> {
    public TaskIdConverter() {
        super(TaskId.class, "task id");
    }

    @Override
    TaskId decode(String stored) {
        return new TaskId(stored);
    }

    @Override
    String encode(TaskId value) {
        return value.value();
    }
}
