package dev.serverfs.adapters.mcp;

import java.util.Objects;
import java.util.function.Function;

/**
 * A {@link ToolDefinition} that can also run as a task: a plain call runs the definition's handler, a call from a
 * client that declared the Tasks extension binds the same validated arguments into the same record and runs {@code
 * start}. Tool surfaces use it to make one of their tools task-capable (e.g. {@code submit_agent_task}).
 */
public record TaskToolDefinition<P>(
        ToolDefinition<P> definition, Function<? super P, TaskTool.Started> start, ToolTasks tasks)
        implements TaskTool {

    public TaskToolDefinition {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(tasks, "tasks");
    }

    @Override
    public ToolSpec spec() {
        return definition.spec();
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        return definition.call(arguments);
    }

    @Override
    public Started start(ToolArguments arguments) {
        return start.apply(arguments.bind(definition.parameters()));
    }
}
