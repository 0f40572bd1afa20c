package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.TaskEvent;
import dev.serverfs.domain.task.TaskId;
import java.util.List;
import java.util.Optional;

/**
 * {@code read_agent_task_events} / {@code task.events} (reference §3.4): {@code after_event_id >= 0}, {@code limit}
 * 1..500 ({@code INVALID_LIMIT}).
 */
public interface ReadAgentTaskEventsUseCase {
    int DEFAULT_LIMIT = 100;
    int MAX_LIMIT = 500;

    EventPage readEvents(TaskId taskId, long afterEventId, int limit);

    record EventPage(Optional<CorrelationId> correlationId, List<TaskEvent> events, long nextAfterEventId) {
        public EventPage {
            events = List.copyOf(events);
        }
    }
}
