package dev.serverfs.adapters.mcp;

import java.lang.reflect.RecordComponent;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One tool as data: what {@code tools/list} publishes ({@link ToolSpec}: name, title, description, annotations,
 * surface, {@code _meta}, schema resource), the record its validated arguments bind into ({@link
 * ToolArguments#bind}) and the handler that maps that record to a use case and returns a {@link ToolResult}.
 * Definitions are grouped per surface in {@code ...mcp.tools} (one class per group) and registered from the group.
 *
 * <p>A parameter record's components are the schema's top-level properties in camelCase and never primitives: an
 * absent or {@code null} argument binds as {@code null}, and the handler applies the default.
 */
public record ToolDefinition<P>(ToolSpec spec, Class<P> parameters, Function<? super P, ToolResult> handler)
        implements McpTool {

    /** The parameters of a tool that takes no arguments. */
    public record NoParameters() {}

    public ToolDefinition {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(handler, "handler");
        if (!parameters.isRecord()) {
            throw new IllegalArgumentException("parameters of " + spec.name() + " must be a record");
        }
        for (RecordComponent c : parameters.getRecordComponents()) {
            if (c.getType().isPrimitive()) {
                throw new IllegalArgumentException(
                        "parameter " + c.getName() + " of " + spec.name() + " must be boxed (absent binds as null)");
            }
        }
    }

    /** A tool whose arguments bind into {@code parameters}. */
    public static <P extends Record> ToolDefinition<P> of(
            ToolSpec spec, Class<P> parameters, Function<? super P, ToolResult> handler) {
        return new ToolDefinition<>(spec, parameters, handler);
    }

    /** A tool without arguments. */
    public static ToolDefinition<NoParameters> of(ToolSpec spec, Supplier<ToolResult> handler) {
        Objects.requireNonNull(handler, "handler");
        return new ToolDefinition<>(spec, NoParameters.class, none -> handler.get());
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        return handler.apply(arguments.bind(parameters));
    }
}
