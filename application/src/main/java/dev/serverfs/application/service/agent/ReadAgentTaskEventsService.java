package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskEvent;
import dev.serverfs.domain.task.TaskId;
import java.util.List;

/** Reference §3.4: cursor paging; {@code next_after_event_id} is the last returned id or the input cursor. */
public final class ReadAgentTaskEventsService implements ReadAgentTaskEventsUseCase {
    private final TaskRecords records;

    public ReadAgentTaskEventsService(TaskRecords records) {
        this.records = records;
    }

    @Override
    public EventPage readEvents(TaskId taskId, long afterEventId, int limit) {
        if (afterEventId < 0 || limit < 1 || limit > MAX_LIMIT) {
            throw new ServerFsException(ErrorCode.INVALID_LIMIT, "after_event_id must be >= 0 and limit 1..500");
        }
        Task task = records.require(taskId);
        List<TaskEvent> events = records.store().events(taskId, afterEventId, limit);
        long next = events.isEmpty() ? afterEventId : events.getLast().eventId();
        return new EventPage(task.correlationId(), events, next);
    }
}
