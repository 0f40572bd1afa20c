package dev.serverfs.adapters.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What {@code tools/list} publishes about a tool besides its schemas: the contract name, a description for the
 * model, annotations, the surface that decides registration, and optional {@code _meta} entries (e.g.
 * {@code openai/fileParams}). The input schema is the resource {@code schemas/<schema>.json} ({@code schema} defaults
 * to the name); an optional output schema is {@code schemas/<schema>.output.json}. {@code enums} fills the {@code
 * enum} of top-level properties at registration, for values the configuration decides (e.g. the runtimes).
 */
public record ToolSpec(
        String name,
        String description,
        ToolAnnotations annotations,
        ToolSurface surface,
        Map<String, Object> meta,
        String schema,
        Map<String, List<String>> enums) {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");

    public ToolSpec {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("tool names are lower_snake_case: " + name);
        }
        Objects.requireNonNull(description, "description");
        if (description.isBlank()) {
            throw new IllegalArgumentException("a tool needs a description: " + name);
        }
        Objects.requireNonNull(annotations, "annotations");
        Objects.requireNonNull(surface, "surface");
        meta = Map.copyOf(meta);
        Objects.requireNonNull(schema, "schema");
        if (!NAME.matcher(schema.replace('.', '_')).matches()) {
            throw new IllegalArgumentException("schema resource names are lower_snake_case: " + schema);
        }
        Map<String, List<String>> copy = new LinkedHashMap<>();
        enums.forEach((property, values) -> copy.put(property, List.copyOf(values)));
        enums = Map.copyOf(copy);
    }

    public ToolSpec(
            String name,
            String description,
            ToolAnnotations annotations,
            ToolSurface surface,
            Map<String, Object> meta,
            String schema) {
        this(name, description, annotations, surface, meta, schema, Map.of());
    }

    public ToolSpec(
            String name,
            String description,
            ToolAnnotations annotations,
            ToolSurface surface,
            Map<String, Object> meta) {
        this(name, description, annotations, surface, meta, name);
    }

    /**
     * The same tool published with the schema resource {@code schemas/<schema>.json} instead of
     * {@code schemas/<name>.json} (e.g. a variant whose enum offers a test-only value).
     */
    public ToolSpec withSchema(String schema) {
        return new ToolSpec(name, description, annotations, surface, meta, schema, enums);
    }

    /**
     * The same tool with the {@code enum} of the top-level property {@code property} set to {@code values} at
     * registration: the schema resource holds that property with an empty {@code enum} in the place it is published.
     */
    public ToolSpec withEnum(String property, List<String> values) {
        Map<String, List<String>> more = new LinkedHashMap<>(enums);
        more.put(property, values);
        return new ToolSpec(name, description, annotations, surface, meta, schema, more);
    }

    /** The same tool published with {@code meta} as its {@code _meta} (e.g. only when a feature is enabled). */
    public ToolSpec withMeta(Map<String, Object> meta) {
        return new ToolSpec(name, description, annotations, surface, meta, schema, enums);
    }

    public ToolSpec(String name, String description, ToolAnnotations annotations, ToolSurface surface) {
        this(name, description, annotations, surface, Map.of());
    }

    /**
     * The human title {@code tools/list} shows (MCP 2025-06-18 {@code Tool.title}): the name read as words, e.g.
     * {@code read_text_file} → "Read text file".
     */
    public String title() {
        String words = name.replace('_', ' ');
        return Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }
}
