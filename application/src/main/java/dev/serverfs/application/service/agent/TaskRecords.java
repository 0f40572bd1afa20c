package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.out.NewEvent;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.json.CanonicalJson;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.AgentLimits;
import dev.serverfs.domain.task.EventType;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.Timestamps;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** The task store as every Agent capability uses it: the clock, look-ups, terminal transitions and events. */
public final class TaskRecords {
    private final TaskStore store;
    private final Clock clock;
    private final AgentLimits limits;

    public TaskRecords(TaskStore store, Clock clock, AgentLimits limits) {
        this.store = store;
        this.clock = clock;
        this.limits = limits;
    }

    TaskStore store() {
        return store;
    }

    AgentLimits limits() {
        return limits;
    }

    /** Now, at the stored precision. */
    Instant now() {
        return Timestamps.truncate(clock.instant());
    }

    Task require(TaskId id) {
        return store.find(id).orElseThrow(() -> new ServerFsException(ErrorCode.AGENT_TASK_NOT_FOUND, "unknown task"));
    }

    /**
     * Applies a terminal transition unless the task is already terminal; returns the new task only when this call
     * made it terminal (the store stales its pending request in the same transaction).
     */
    Optional<Task> terminate(TaskId id, UnaryOperator<Task> transition) {
        AtomicBoolean changed = new AtomicBoolean();
        Task result = store.update(id, unlessTerminal(transition, changed));
        return changed.get() && result.isTerminal() ? Optional.of(result) : Optional.empty();
    }

    /**
     * {@link #terminate(TaskId, UnaryOperator)} with the event that announces the new state, computed from the new task
     * and written in the same transaction: nobody reads a terminal task whose terminal event is not there yet.
     */
    Optional<Task> terminate(TaskId id, UnaryOperator<Task> transition, Function<Task, Announcement> announce) {
        return announced(id, transition, next -> List.of(announce.apply(next)));
    }

    /** {@link #terminate(TaskId, UnaryOperator, Function)} with several fixed events, appended in order. */
    Optional<Task> terminate(TaskId id, UnaryOperator<Task> transition, List<Announcement> announcements) {
        return announced(id, transition, next -> announcements);
    }

    private Optional<Task> announced(
            TaskId id, UnaryOperator<Task> transition, Function<Task, List<Announcement>> announce) {
        AtomicBoolean changed = new AtomicBoolean();
        Task result = store.update(
                id,
                unlessTerminal(transition, changed),
                next -> announce.apply(next).stream()
                        .map(this::draft)
                        .flatMap(Optional::stream)
                        .toList(),
                limits.maxEventsPerTask());
        return changed.get() && result.isTerminal() ? Optional.of(result) : Optional.empty();
    }

    /** The transition, applied only to a task that is not terminal yet; {@code changed} says whether it was. */
    private static UnaryOperator<Task> unlessTerminal(UnaryOperator<Task> transition, AtomicBoolean changed) {
        return t -> {
            if (t.isTerminal()) {
                return t;
            }
            Task next = transition.apply(t);
            changed.set(next != t);
            return next;
        };
    }

    /** An event type with its payload, before it is stored. */
    record Announcement(EventType type, JsonValue.JsonObject payload) {

        /** {@code TASK_INTERRUPTED} / {@code TASK_FAILED} style events that carry only the error code. */
        static Announcement error(EventType type, ErrorCode code) {
            return new Announcement(
                    type, JsonValue.object().put("error_code", code.wire()).build());
        }
    }

    void event(TaskId id, EventType type, JsonValue.JsonObject payload) {
        event(id, type.wire(), payload);
    }

    /** Events never fail the operation (reference §3.13: append failures are swallowed; oversized ones dropped). */
    void event(TaskId id, String type, JsonValue.JsonObject payload) {
        draft(type, payload).ifPresent(event -> {
            try {
                store.appendEvent(
                        id, event.eventType(), event.payloadJson(), event.createdAt(), limits.maxEventsPerTask());
            } catch (ServerFsException ignored) {
                // AGENT_EVENT_LIMIT_REACHED or a vanished task: evidence is best-effort
            }
        });
    }

    /** {@code TASK_INTERRUPTED} / {@code TASK_FAILED} style events that carry only the error code. */
    void errorEvent(TaskId id, EventType type, ErrorCode code) {
        Announcement error = Announcement.error(type, code);
        event(id, error.type(), error.payload());
    }

    private Optional<NewEvent> draft(Announcement announcement) {
        return draft(announcement.type().wire(), announcement.payload());
    }

    /** The event as stored, or empty when its payload is over the event size limit (such events are dropped). */
    private Optional<NewEvent> draft(String type, JsonValue.JsonObject payload) {
        String json = CanonicalJson.write(payload);
        if (json.getBytes(StandardCharsets.UTF_8).length > limits.maxEventBytes()) {
            return Optional.empty();
        }
        return Optional.of(new NewEvent(type, json, now()));
    }

    static ServerFsException stale() {
        return new ServerFsException(ErrorCode.REQUEST_STALE, "the request is stale");
    }

    static ServerFsException terminal() {
        return new ServerFsException(ErrorCode.AGENT_TASK_TERMINAL, "the task is no longer active");
    }
}
