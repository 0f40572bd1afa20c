package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The tasks of one or more {@link TaskTool}s, as {@code tasks/get}, {@code tasks/update} and {@code tasks/cancel}
 * reach them. Implementations render their own records; they never keep a second copy of a task's state, so the
 * task and its MCP view agree at every moment.
 */
public interface ToolTasks {

    /** The task's current view, or empty when this source does not know the id (then the next source is asked). */
    Optional<ToolTask> get(String taskId);

    /**
     * Answers the task's outstanding input requests: {@code responses} holds only keys the task showed outstanding
     * when the request arrived (the transport drops others, as the extension says), each an elicitation result. A
     * {@link dev.serverfs.domain.error.ServerFsException} refuses the answer; returns what the audit event records.
     */
    ToolResult update(String taskId, Map<String, Response> responses);

    /** Asks for the task's cancellation (the ack is sent after this returns); returns what the audit event records. */
    ToolResult cancel(String taskId);

    /** One elicitation result of {@code inputResponses} (MCP 2026-07-28 {@code ElicitResult}). */
    record Response(Action action, ObjectNode content) {
        public Response {
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(content, "content");
        }
    }

    /** What the user did with an elicitation. */
    enum Action {
        ACCEPT,
        DECLINE,
        CANCEL
    }
}
