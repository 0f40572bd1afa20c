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

    /** Where this tool's tasks are read, answered and cancelled (several tools may share one). */
    ToolTasks tasks();

    /**
     * Whether a call cannot run without a task: a stateless client that did not declare the extension is then
     * refused with -32021 naming it. False by default ({@link #call} serves such clients).
     */
    default boolean requiresTask() {
        return false;
    }

    /** The started task's id and what the call's audit event records (the same as {@link #call}'s result would). */
    record Started(String taskId, ToolResult audit) {
        public Started {
            Objects.requireNonNull(taskId, "taskId");
            Objects.requireNonNull(audit, "audit");
        }
    }
}
