package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One task as the Tasks extension shows it: id, state, creation and last-update times, time to live (empty is
 * unlimited), suggested poll interval and an optional status message. The state carries what {@code tasks/get}
 * inlines: the outstanding input requests, the final tool result, or the error.
 */
public record ToolTask(
        String taskId,
        State state,
        Instant createdAt,
        Instant lastUpdatedAt,
        Optional<Duration> ttl,
        Duration pollInterval,
        Optional<String> statusMessage) {

    public ToolTask {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(lastUpdatedAt, "lastUpdatedAt");
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(pollInterval, "pollInterval");
        Objects.requireNonNull(statusMessage, "statusMessage");
        if (ttl.isPresent() && !ttl.get().isPositive() || !pollInterval.isPositive()) {
            throw new IllegalArgumentException("ttl and poll interval must be positive");
        }
    }

    /** How often a client is asked to poll a task that could not be read ({@link #unread}). */
    static final Duration UNREAD_POLL_INTERVAL = Duration.ofSeconds(1);

    /**
     * A task created at {@code now} whose state could not be read: {@code working}, no time to live promised beyond
     * what {@code tasks/get} will say once it can.
     */
    static ToolTask unread(String taskId, Instant now) {
        return new ToolTask(
                taskId, new State.Working(), now, now, Optional.empty(), UNREAD_POLL_INTERVAL, Optional.empty());
    }

    /** The extension's five statuses, each with what it inlines. */
    public sealed interface State {

        /** The work goes on. */
        record Working() implements State {}

        /** Waiting for the client: the outstanding elicitation forms by key (keys unique over the task's life). */
        record InputRequired(Map<String, Form> requests) implements State {
            public InputRequired {
                requests = Collections.unmodifiableMap(new LinkedHashMap<>(requests));
                if (requests.isEmpty()) {
                    throw new IllegalArgumentException("input_required needs at least one request");
                }
            }
        }

        /** Finished with a tool result. */
        record Completed(ToolResult result) implements State {
            public Completed {
                Objects.requireNonNull(result, "result");
            }
        }

        /** Finished with a tool error: {@code completed} with {@code isError: true} (not {@code failed}). */
        record CompletedWithError(ServerFsException error) implements State {
            public CompletedWithError {
                Objects.requireNonNull(error, "error");
            }
        }

        /** Ended by a failure of the execution itself: {@code failed} with a JSON-RPC error naming the code. */
        record Failed(ErrorCode code, String message) implements State {
            public Failed {
                Objects.requireNonNull(code, "code");
                Objects.requireNonNull(message, "message");
            }
        }

        /** Cancelled. */
        record Cancelled() implements State {}
    }

    /** An {@code elicitation/create} form (MCP 2026-07-28 {@code ElicitRequestFormParams}). */
    public record Form(String message, ObjectNode requestedSchema) {
        public Form {
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(requestedSchema, "requestedSchema");
        }
    }
}
