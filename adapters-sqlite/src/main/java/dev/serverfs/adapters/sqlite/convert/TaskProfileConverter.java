package dev.serverfs.adapters.sqlite.convert;

import dev.serverfs.domain.task.TaskProfile;

/** {@code tasks.profile}: the contract's profile name ({@code workspace-write}). */
public final class TaskProfileConverter extends TextColumnConverter<TaskProfile> {
    public TaskProfileConverter() {
        super(TaskProfile.class, "task profile");
    }

    @Override
    TaskProfile decode(String stored) {
        return TaskProfile.fromWire(stored).orElseThrow(IllegalArgumentException::new);
    }

    @Override
    String encode(TaskProfile value) {
        return value.wire();
    }
}
