package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The flat top-level arguments of one tool call (reference §2.0), already validated against the tool's input
 * schema and holding only the arguments the schema names (unknown ones were dropped). Typed getters only: JSON types
 * never leave the adapter. A JSON {@code null} reads as absent. A getter whose value has the wrong type, or a
 * missing required argument, is {@code INVALID_ARGUMENTS} (a tool result the model can correct, MCP 2025-11-25
 * SEP-1303), whichever layer notices it.
 */
public final class ToolArguments {

    private final ObjectNode node;

    ToolArguments(ObjectNode node) {
        this.node = Objects.requireNonNull(node, "node");
    }

    /** Whether the argument is present and not {@code null}. */
    public boolean has(String name) {
        JsonNode value = node.get(name);
        return value != null && !value.isNull();
    }

    public Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    public Optional<String> string(String name) {
        return value(name).map(v -> {
            if (!v.isTextual()) {
                throw wrongType(name, "string");
            }
            return v.textValue();
        });
    }

    /** A required string argument (the schema lists it in {@code required}). */
    public String requiredString(String name) {
        return string(name)
                .orElseThrow(() -> new ServerFsException(ErrorCode.INVALID_ARGUMENTS, "missing argument " + name));
    }

    /**
     * An integer argument (JSON Schema: a number with a zero fractional part, so {@code 2.0} counts). A value beyond
     * the 64-bit range reads as the nearest bound: every caller clamps it or treats it as past the end, exactly as
     * the unbounded integers of the reference do (issue 10 §7), and none can hold such a value anyway.
     */
    public Optional<Long> longValue(String name) {
        return value(name).map(v -> {
            if (v.isIntegralNumber()) {
                if (v.canConvertToLong()) {
                    return v.longValue();
                }
                return v.bigIntegerValue().signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            if (v.isNumber()) {
                double d = v.doubleValue();
                if (d == Math.rint(d)) {
                    // A narrowing cast saturates (JLS §5.1.3), infinities included.
                    return (long) d;
                }
            }
            throw wrongType(name, "integer");
        });
    }

    /** As {@link #longValue}, a value beyond the 32-bit range reading as the nearest bound. */
    public Optional<Integer> integer(String name) {
        return longValue(name).map(v -> Math.clamp(v, Integer.MIN_VALUE, Integer.MAX_VALUE));
    }

    public Optional<Boolean> bool(String name) {
        return value(name).map(v -> {
            if (!v.isBoolean()) {
                throw wrongType(name, "boolean");
            }
            return v.booleanValue();
        });
    }

    public boolean bool(String name, boolean defaultValue) {
        return bool(name).orElse(defaultValue);
    }

    /** An array of strings; empty when absent. */
    public List<String> strings(String name) {
        List<String> out = new ArrayList<>();
        for (JsonNode item : array(name)) {
            if (!item.isTextual()) {
                throw wrongType(name, "array of strings");
            }
            out.add(item.textValue());
        }
        return List.copyOf(out);
    }

    /** An array of objects (e.g. a list of edits); empty when absent. */
    public List<ToolArguments> objects(String name) {
        List<ToolArguments> out = new ArrayList<>();
        for (JsonNode item : array(name)) {
            if (!(item instanceof ObjectNode object)) {
                throw wrongType(name, "array of objects");
            }
            out.add(new ToolArguments(object));
        }
        return List.copyOf(out);
    }

    /** A nested object argument. */
    public Optional<ToolArguments> object(String name) {
        return value(name).map(v -> {
            if (!(v instanceof ObjectNode object)) {
                throw wrongType(name, "object");
            }
            return new ToolArguments(object);
        });
    }

    private Iterable<JsonNode> array(String name) {
        Optional<JsonNode> value = value(name);
        if (value.isEmpty()) {
            return List.of();
        }
        if (!value.get().isArray()) {
            throw wrongType(name, "array");
        }
        return value.get();
    }

    private Optional<JsonNode> value(String name) {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(value);
    }

    private static ServerFsException wrongType(String name, String expected) {
        return new ServerFsException(ErrorCode.INVALID_ARGUMENTS, "argument " + name + " is not a " + expected);
    }

    @Override
    public String toString() {
        // Argument values may be file contents or edit text: never print them.
        return "ToolArguments" + names();
    }
}
