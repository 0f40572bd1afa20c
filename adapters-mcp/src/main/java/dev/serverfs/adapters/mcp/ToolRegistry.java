package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.keyword.NonValidationKeyword;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The tools this process offers: those whose {@link ToolSurface} is enabled, each with its input schema (and
 * optional output schema) loaded from {@code schemas/<name>.json} and compiled once (ARCHITECTURE.md §3.7). Fails
 * at start-up on a duplicate name, a missing schema, or a schema that is not a closed object schema.
 */
final class ToolRegistry {

    static final String SCHEMA_FOLDER = "/dev/serverfs/adapters/mcp/schemas/";

    /**
     * MCP 2025-11-25: an inputSchema without {@code $schema} is JSON Schema 2020-12; this dialect also knows the
     * 2026-07-28 transport's {@code x-mcp-header} annotation, as a keyword that validates nothing (otherwise the
     * validator logs an "unknown keyword" warning for every schema that has one).
     */
    private static final SchemaRegistry SCHEMAS =
            SchemaRegistry.withDefaultDialect(Dialect.builder(Dialects.getDraft202012())
                    .keyword(new NonValidationKeyword("x-mcp-header"))
                    .build());

    /** RFC 9110 §5.1 {@code 1*tchar}: what an {@code x-mcp-header} name may be. */
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    private static final Set<String> HEADER_TYPES = Set.of("string", "integer", "boolean");

    private final Map<String, RegisteredTool> tools = new LinkedHashMap<>();
    private final Map<String, Map<String, List<String>>> paramHeaders = new LinkedHashMap<>();

    ToolRegistry(Collection<? extends McpTool> candidates, Set<ToolSurface> enabled) {
        for (McpTool tool : candidates) {
            ToolSpec spec = tool.spec();
            if (!enabled.contains(spec.surface())) {
                continue;
            }
            if (tools.containsKey(spec.name())) {
                throw new IllegalStateException("tool registered twice: " + spec.name());
            }
            ObjectNode input = loadSchema(spec.schema() + ".json")
                    .orElseThrow(() -> new IllegalStateException("missing input schema for tool " + spec.name()));
            if (!"object".equals(input.path("type").asText())) {
                throw new IllegalStateException("input schema of " + spec.name() + " must have type object");
            }
            if (!input.path("additionalProperties").isBoolean()
                    || input.get("additionalProperties").booleanValue()) {
                // Issue 24 item 10: strict-schema clients (OpenAI Agents SDK) refuse an open top level. Unknown
                // top-level arguments are still dropped before validation (CONTRACT.md §2, see knownArguments).
                throw new IllegalStateException(
                        "input schema of " + spec.name() + " must set additionalProperties false");
            }
            fillEnums(spec, input);
            Optional<ObjectNode> output = loadSchema(spec.schema() + ".output.json");
            Schema compiled = SCHEMAS.getSchema(input);
            // Compile every keyword now, so a bad schema fails at start-up and the first call is not slow.
            compiled.initializeValidators();
            Map<String, List<String>> headers = new LinkedHashMap<>();
            collectParamHeaders(spec.name(), input, List.of(), headers);
            if (!headers.isEmpty()) {
                paramHeaders.put(spec.name(), Map.copyOf(headers));
            }
            Set<String> known = new LinkedHashSet<>();
            input.path("properties").fieldNames().forEachRemaining(known::add);
            tools.put(
                    spec.name(),
                    new RegisteredTool(tool, spec, descriptor(spec, input, output), compiled, Set.copyOf(known)));
        }
    }

    Optional<RegisteredTool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /**
     * The {@code x-mcp-header} names of a tool's input schema and the property path each mirrors (2026-07-28
     * transports, custom headers from tool parameters); empty for every ServerFS tool.
     */
    Map<String, List<String>> paramHeaders(String tool) {
        return paramHeaders.getOrDefault(tool, Map.of());
    }

    Set<String> names() {
        return tools.keySet();
    }

    boolean isEmpty() {
        return tools.isEmpty();
    }

    /** The {@code tools} array of a {@code tools/list} result. */
    ArrayNode descriptors() {
        ArrayNode array = Json.WIRE.createArrayNode();
        tools.values().forEach(t -> array.add(t.descriptor().deepCopy()));
        return array;
    }

    private static ObjectNode descriptor(ToolSpec spec, ObjectNode input, Optional<ObjectNode> output) {
        ObjectNode d = Json.object();
        d.put("name", spec.name());
        d.put("title", spec.title());
        d.put("description", spec.description());
        d.set("inputSchema", input);
        output.ifPresent(o -> d.set("outputSchema", o));
        ObjectNode annotations = d.putObject("annotations");
        ToolAnnotations a = spec.annotations();
        annotations.put("readOnlyHint", a.readOnlyHint());
        a.destructiveHint().ifPresent(v -> annotations.put("destructiveHint", v));
        a.idempotentHint().ifPresent(v -> annotations.put("idempotentHint", v));
        annotations.put("openWorldHint", a.openWorldHint());
        if (!spec.meta().isEmpty()) {
            d.set("_meta", Json.WIRE.valueToTree(spec.meta()));
        }
        return d;
    }

    /**
     * Sets each enum the spec fills at registration, in place, so the published bytes keep the resource's key order;
     * every empty {@code enum} of a top-level property must be filled, and only those.
     */
    private static void fillEnums(ToolSpec spec, ObjectNode input) {
        input.path("properties").properties().forEach(property -> {
            JsonNode current = property.getValue().path("enum");
            List<String> values = spec.enums().get(property.getKey());
            boolean placeholder = current.isArray() && current.isEmpty();
            if (placeholder != (values != null)) {
                throw new IllegalStateException("the enum of " + spec.name() + "." + property.getKey()
                        + (placeholder ? " is filled at registration but no values were given" : " is fixed"));
            }
            if (values != null) {
                if (values.isEmpty()) {
                    throw new IllegalStateException(
                            "the enum of " + spec.name() + "." + property.getKey() + " needs at least one value");
                }
                ArrayNode array = ((ObjectNode) property.getValue()).putArray("enum");
                values.forEach(array::add);
            }
        });
        for (String property : spec.enums().keySet()) {
            if (!input.path("properties").has(property)) {
                throw new IllegalStateException("input schema of " + spec.name() + " has no property " + property);
            }
        }
    }

    /**
     * Collects {@code x-mcp-header} annotations reachable from the root through {@code properties} keys only; fails
     * on a name that is not a header token, a name used twice (case-insensitively) or a non-primitive parameter.
     */
    private static void collectParamHeaders(
            String tool, JsonNode schema, List<String> path, Map<String, List<String>> headers) {
        schema.path("properties").properties().forEach(e -> {
            List<String> at = new ArrayList<>(path);
            at.add(e.getKey());
            JsonNode header = e.getValue().get("x-mcp-header");
            if (header != null) {
                String name = header.asText();
                if (!header.isTextual() || !TOKEN.matcher(name).matches()) {
                    throw new IllegalStateException("x-mcp-header of " + tool + " is not a header name: " + header);
                }
                if (!HEADER_TYPES.contains(e.getValue().path("type").asText())) {
                    throw new IllegalStateException("x-mcp-header of " + tool + " is on a non-primitive parameter");
                }
                boolean taken = headers.keySet().stream()
                        .anyMatch(n -> n.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT)));
                if (taken) {
                    throw new IllegalStateException("x-mcp-header " + name + " of " + tool + " is used twice");
                }
                headers.put(name, List.copyOf(at));
            }
            collectParamHeaders(tool, e.getValue(), at, headers);
        });
    }

    private static Optional<ObjectNode> loadSchema(String file) {
        try (InputStream in = ToolRegistry.class.getResourceAsStream(SCHEMA_FOLDER + file)) {
            if (in == null) {
                return Optional.empty();
            }
            JsonNode node = Json.WIRE.readTree(in);
            if (!(node instanceof ObjectNode object)) {
                throw new IllegalStateException("schema " + file + " is not a JSON object");
            }
            return Optional.of(object);
        } catch (IOException e) {
            throw new UncheckedIOException("schema " + file + " could not be read", e);
        }
    }

    /**
     * One offered tool with its published descriptor, compiled input schema and the top-level argument names that
     * schema declares (the only ones a call hands to the tool).
     */
    record RegisteredTool(
            McpTool tool, ToolSpec spec, ObjectNode descriptor, Schema inputSchema, Set<String> argumentNames) {

        /** The arguments this tool knows, in the caller's order; unknown ones are dropped, never acted on. */
        ObjectNode knownArguments(ObjectNode arguments) {
            ObjectNode known = Json.object();
            arguments.properties().forEach(e -> {
                if (argumentNames.contains(e.getKey())) {
                    known.set(e.getKey(), e.getValue());
                }
            });
            return known;
        }
    }
}
