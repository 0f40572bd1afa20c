package dev.serverfs.application.port.out;

import dev.serverfs.domain.task.Task;
import java.util.Objects;

/** What {@link TaskStore#insert} did: created the task, or found a retained task with the same idempotency key. */
public sealed interface InsertOutcome {

    Task task();

    record Created(Task task) implements InsertOutcome {
        public Created {
            Objects.requireNonNull(task, "task");
        }
    }

    record Existing(Task task) implements InsertOutcome {
        public Existing {
            Objects.requireNonNull(task, "task");
        }
    }
}
