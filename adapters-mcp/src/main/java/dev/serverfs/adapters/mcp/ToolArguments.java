package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * The flat top-level arguments of one tool call (reference §2.0), already validated against the tool's input
 * schema and holding only the arguments the schema names (unknown ones were dropped). Typed getters only: JSON types
 * never leave the adapter. A JSON {@code null} reads as absent. A getter whose value has the wrong type, or a
 * missing required argument, is {@code INVALID_ARGUMENTS} (a tool result the model can correct, MCP 2025-11-25
 * SEP-1303), whichever layer notices it. {@link #bind} reads them all at once into a parameter record.
 */
@JsonDeserialize(using = ToolArguments.Nested.class)
public final class ToolArguments {

    /**
     * How the adapter's mapper binds arguments ({@link #bind}): integers as {@link #longValue} and {@link #integer}
     * read them (registered on {@code Json.PAYLOAD}, the one mapper of this adapter).
     */
    static final SimpleModule BINDING = new SimpleModule("serverfs-tool-arguments")
            .addDeserializer(Long.class, new Saturating<>(Long.class, ToolArguments::toLong))
            .addDeserializer(Integer.class, new Saturating<>(Integer.class, ToolArguments::toInt));

    private final ObjectNode node;
    private final Progress progress;

    ToolArguments(ObjectNode node) {
        this(node, Progress.NONE);
    }

    ToolArguments(ObjectNode node, Progress progress) {
        this.node = Objects.requireNonNull(node, "node");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /** Where this call reports its progress ({@link Progress#NONE} when the client asked for none). */
    public Progress progress() {
        return progress;
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
        return value(name).map(v -> toLong(name, v));
    }

    private static long toLong(String name, JsonNode v) {
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
    }

    private static int toInt(String name, JsonNode v) {
        return Math.clamp(toLong(name, v), Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /** As {@link #longValue}, a value beyond the 32-bit range reading as the nearest bound. */
    public Optional<Integer> integer(String name) {
        return value(name).map(v -> toInt(name, v));
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

    /**
     * All arguments at once as a parameter record of {@code type}: its components are the schema's properties in
     * camelCase ({@code expected_revision} → {@code expectedRevision}), bound by the adapter's snake_case mapper. An
     * absent or {@code null} argument binds as {@code null} (components are never primitives: see {@link
     * ToolDefinition}); integers bind as {@link #longValue} and {@link #integer} read them; a nested object may
     * bind as a {@code ToolArguments} of its own (e.g. to check its keys before binding it in turn). The arguments
     * were validated against the schema first, so a value the record cannot take is, as for the getters, {@code
     * INVALID_ARGUMENTS}; an argument the record has no component for is a bug of that record.
     */
    public <P> P bind(Class<P> type) {
        ObjectReader reader = Json.PAYLOAD.readerFor(type).without(DeserializationFeature.WRAP_EXCEPTIONS);
        try {
            return reader.readValue(node);
        } catch (UnrecognizedPropertyException e) {
            throw new IllegalStateException(
                    type.getSimpleName() + " has no component for argument " + e.getPropertyName(), e);
        } catch (JsonMappingException e) {
            throw new ServerFsException(
                    ErrorCode.INVALID_ARGUMENTS, "argument " + location(e) + " does not have the schema's type");
        } catch (IOException e) {
            throw new IllegalStateException("arguments could not be bound to " + type.getSimpleName(), e);
        }
    }

    /** Where a binding failed, in the caller's names: {@code edits[0].old_text}. */
    private static String location(JsonMappingException e) {
        String path = e.getPath().stream()
                .map(r -> r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining());
        return path.startsWith(".") ? path.substring(1) : path;
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

    /** An integer component read as the getters read it. */
    private static final class Saturating<T> extends StdScalarDeserializer<T> {
        private final transient BiFunction<String, JsonNode, T> read;

        Saturating(Class<T> type, BiFunction<String, JsonNode, T> read) {
            super(type);
            this.read = read;
        }

        @Override
        public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String name = p.currentName() == null ? "value" : p.currentName();
            return read.apply(name, ctxt.readTree(p));
        }
    }

    /** A nested object component kept as arguments of its own. */
    static final class Nested extends StdScalarDeserializer<ToolArguments> {
        Nested() {
            super(ToolArguments.class);
        }

        @Override
        public ToolArguments deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode value = ctxt.readTree(p);
            if (!(value instanceof ObjectNode object)) {
                throw wrongType(p.currentName() == null ? "value" : p.currentName(), "object");
            }
            return new ToolArguments(object);
        }
    }

    @Override
    public String toString() {
        // Argument values may be file contents or edit text: never print them.
        return "ToolArguments" + names();
    }
}
