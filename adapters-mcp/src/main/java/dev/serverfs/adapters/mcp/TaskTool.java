package dev.serverfs.adapters.mcp;

import java.util.Objects;

/**
 * A tool whose calls can run as MCP Tasks (the {@code io.modelcontextprotocol/tasks} extension of 2026-07-28). When
 * a stateless request declares the extension, {@code tools/call} runs {@link #start} instead of {@link #call} and
 * answers the task's handle at once; every other call (a session, a request without the extension) runs {@link
 * #call} as before, unless {@link #requiresTask} refuses it with -32021. Arguments reach {@link #start} validated
 * exactly as they reach {@link #call}.
 */
public interface TaskTool extends McpTool {

    /**
     * Starts the call as a task; when this returns the task is readable through {@link #tasks()} (the extension: no
     * handle before the task is durably created). A {@link dev.serverfs.domain.error.ServerFsException} before a task
     * exists is the call's tool error, as for {@link #call}.
     */
    Started start(ToolArguments arguments);

    /**
     * One round of starting a task that may first gather client input (ext-tasks "Composition with Multi Round-Trip
     * Requests"): {@link InputRequired} answers the round as an {@code InputRequiredResult} and creates no task, the
     * retry brings the responses in {@code round}; {@link Started} hands off to the task. By default the task starts
     * at once with {@link #start(ToolArguments)}.
     */
    default StartReply start(ToolArguments arguments, InputRound round) {
        return start(arguments);
    }

    /** Where this tool's tasks are read, answered and cancelled (several tools may share one). */
    ToolTasks tasks();

    /**
     * Whether a call cannot run without a task: a stateless client that did not declare the extension is then
     * refused with -32021 naming it. False by default ({@link #call} serves such clients).
     */
    default boolean requiresTask() {
        return false;
    }

    /** What one round of starting a task answers: the task, or the input it needs before it can exist. */
    sealed interface StartReply permits Started, InputRequired {}

    /** The started task's id and what the call's audit event records (the same as {@link #call}'s result would). */
    record Started(String taskId, ToolResult audit) implements StartReply {
        public Started {
            Objects.requireNonNull(taskId, "taskId");
            Objects.requireNonNull(audit, "audit");
        }
    }
}
