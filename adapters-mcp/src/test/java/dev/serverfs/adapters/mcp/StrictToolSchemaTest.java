package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.serverfs.adapters.mcp.tools.agent.AgentTools;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 24 item 10: every tool's published input schema converts to a strict schema without a change in what it
 * accepts, and every input and output schema passes the portability lint of MCP Inspector's {@code --strict} mode.
 * The conversion is {@link #strict}, the rules of the OpenAI Agents SDK's {@code convert_schemas_to_strict} (its
 * {@code ensure_strict_json_schema} with open objects rejected, as its MCP path does); the lint is {@link #lint},
 * Inspector 2.12's four schema rules. Both are written here from their documented behaviour, not copied.
 */
class StrictToolSchemaTest {

    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    /** Objects the conversion may close because the tool itself refuses any undeclared key in them. */
    private static final Set<String> CLOSED_BY_THE_TOOL = Set.of("answer_agent_question:/properties/answers/items");

    /** Every distinct tool descriptor, over every surface and variant (ingress on and off, the test runtime). */
    private static Map<String, JsonNode> descriptors() {
        Map<String, JsonNode> all = new LinkedHashMap<>();
        for (boolean ingress : List.of(false, true)) {
            for (boolean fake : List.of(false, true)) {
                ToolRegistry registry =
                        new ToolRegistry(ToolCatalogueTest.all(ingress, fake), EnumSet.allOf(ToolSurface.class));
                registry.descriptors().forEach(d -> all.putIfAbsent(d.toString(), d));
            }
        }
        return all;
    }

    @Test
    void every_input_schema_converts_to_a_strict_schema_that_accepts_the_same_calls() {
        Map<String, JsonNode> descriptors = descriptors();
        assertTrue(descriptors.size() >= 22, descriptors.keySet().toString());
        for (JsonNode descriptor : descriptors.values()) {
            String tool = descriptor.get("name").textValue();
            ObjectNode published = (ObjectNode) descriptor.get("inputSchema");

            ObjectNode converted = strict(published.deepCopy());

            // The conversion may only make every property required and drop null defaults; everything else stays.
            List<String> nowRequired = new ArrayList<>();
            ObjectNode expected = published.deepCopy();
            requireAll(expected, "", tool, nowRequired);
            assertEquals(expected, converted, tool);
            // A property the conversion makes required must admit null, which binds as absent does (ToolArguments).
            for (String pointer : nowRequired) {
                JsonNode property = published.at(pointer);
                assertTrue(
                        SCHEMAS.getSchema(property.deepCopy())
                                .validate(NullNode.instance)
                                .isEmpty(),
                        tool + pointer + " is optional but not nullable");
            }
        }
    }

    @Test
    void the_conversion_refuses_an_open_object_as_the_sdk_does() {
        // The list_workdirs schema before issue 24: "permits undeclared properties", sent non-strict by the SDK.
        ObjectNode open =
                (ObjectNode) Json.read("{\"type\":\"object\",\"properties\":{}}".getBytes(StandardCharsets.UTF_8));
        assertThrows(IllegalArgumentException.class, () -> strict(open));
        ObjectNode openNested = (ObjectNode) Json.read(
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"object\",\"additionalProperties\":true}},\"additionalProperties\":false}"
                        .getBytes(StandardCharsets.UTF_8));
        assertThrows(IllegalArgumentException.class, () -> strict(openNested));
    }

    @Test
    void the_object_the_conversion_closes_is_one_whose_extra_keys_the_tool_refuses() {
        ToolInvoker agent = new ToolInvoker(
                new ToolRegistry(
                        new AgentTools(Fixtures.unusedAgent(), Fixtures.runtimes(false)).definitions(),
                        Set.of(ToolSurface.AGENT)),
                new Fixtures.RecordingAuditLog());

        ObjectNode result = assertInstanceOf(
                        ToolInvoker.Outcome.Result.class,
                        agent.call(
                                "answer_agent_question",
                                Json.read(("{\"task_id\":\"agt_0123456789abcdef01234567\","
                                                + "\"request_id\":\"req_0123456789abcdef01234567\","
                                                + "\"answers\":[{\"question_id\":\"q\",\"text\":\"t\",\"extra\":1}]}")
                                        .getBytes(StandardCharsets.UTF_8))))
                .result();

        assertTrue(result.get("isError").booleanValue());
        assertTrue(result.at("/content/0/text").textValue().startsWith("INVALID_QUESTION_ANSWER: "), result.toString());
    }

    @Test
    void every_input_and_output_schema_passes_the_inspector_strict_lint() {
        List<String> findings = new ArrayList<>();
        for (JsonNode descriptor : descriptors().values()) {
            String tool = descriptor.get("name").textValue();
            lint(descriptor.get("inputSchema"), tool + ":inputSchema", null, findings);
            if (descriptor.has("outputSchema")) {
                lint(descriptor.get("outputSchema"), tool + ":outputSchema", null, findings);
            }
        }
        assertEquals(List.of(), findings);
    }

    // --- the SDK's conversion ------------------------------------------------------------------------------------

    /** The strict form of {@code schema} (changed in place), or IllegalArgumentException where the SDK refuses. */
    static ObjectNode strict(ObjectNode schema) {
        if (schema.has("anyOf")) {
            throw new IllegalArgumentException("the root of a strict schema must not use anyOf");
        }
        JsonNode rootType = schema.get("type");
        if (rootType != null && rootType.isArray()) {
            if (rootType.size() != 1 || !"object".equals(rootType.get(0).asText())) {
                throw new IllegalArgumentException("the root must be a non-nullable object");
            }
            schema.put("type", "object");
        }
        convert(schema);
        return schema;
    }

    private static void convert(JsonNode node) {
        if (!(node instanceof ObjectNode schema)) {
            throw new IllegalArgumentException("a schema must be an object: " + node);
        }
        if (schema.has("$ref") || schema.has("allOf")) {
            // Our schemas use neither; the SDK's handling of them is not needed to judge them.
            throw new IllegalArgumentException("$ref and allOf are not expected in tool schemas");
        }
        for (String defs : List.of("$defs", "definitions")) {
            schema.path(defs).forEach(StrictToolSchemaTest::convert);
        }
        JsonNode type = schema.get("type");
        JsonNode properties = schema.get("properties");
        JsonNode additional = schema.get("additionalProperties");
        boolean closed = additional != null && additional.isBoolean() && !additional.booleanValue();
        if (type == null && properties instanceof ObjectNode) {
            schema.put("type", "object");
            type = schema.get("type");
        } else if (type == null && additional != null && !closed) {
            throw new IllegalArgumentException("additionalProperties must not be set on an untyped schema");
        }
        boolean object = type != null
                && ("object".equals(type.asText())
                        || type.isArray() && type.toString().contains("\"object\""));
        if (object && (properties == null || properties.isEmpty()) && !closed) {
            throw new IllegalArgumentException("an object permits undeclared properties: " + schema);
        }
        if (object && additional == null) {
            schema.put("additionalProperties", false);
        } else if (object && !closed) {
            throw new IllegalArgumentException("additionalProperties must be false: " + schema);
        }
        if (properties instanceof ObjectNode props) {
            ArrayNode required = schema.putArray("required");
            props.properties().forEach(p -> {
                required.add(p.getKey());
                convert(p.getValue());
            });
        }
        if (schema.get("items") instanceof ObjectNode items) {
            convert(items);
        }
        schema.path("anyOf").forEach(StrictToolSchemaTest::convert);
        if (schema.get("oneOf") instanceof ArrayNode oneOf) {
            ArrayNode anyOf = schema.has("anyOf") ? (ArrayNode) schema.get("anyOf") : schema.putArray("anyOf");
            oneOf.forEach(branch -> {
                convert(branch);
                anyOf.add(branch);
            });
            schema.remove("oneOf");
        }
        if (schema.has("default") && schema.get("default").isNull()) {
            schema.remove("default");
        }
    }

    /**
     * What the conversion may do to {@code node} without changing what it accepts, done in place: list every
     * property as required (noting the pointers of those that were not), drop null defaults, close the objects in
     * {@link #CLOSED_BY_THE_TOOL}.
     */
    private static void requireAll(JsonNode node, String pointer, String tool, List<String> nowRequired) {
        if (!(node instanceof ObjectNode schema)) {
            return;
        }
        if (schema.get("properties") instanceof ObjectNode props) {
            List<String> before = new ArrayList<>();
            schema.path("required").forEach(r -> before.add(r.textValue()));
            ArrayNode required = Json.WIRE.createArrayNode();
            props.properties().forEach(p -> {
                required.add(p.getKey());
                String at = pointer + "/properties/" + p.getKey();
                if (!before.contains(p.getKey())) {
                    nowRequired.add(at);
                }
                requireAll(p.getValue(), at, tool, nowRequired);
            });
            if (CLOSED_BY_THE_TOOL.contains(tool + ":" + pointer)) {
                schema.put("additionalProperties", false);
            }
            schema.set("required", required);
        }
        requireAll(schema.get("items"), pointer + "/items", tool, nowRequired);
        JsonNode anyOf = schema.path("anyOf");
        for (int i = 0; i < anyOf.size(); i++) {
            requireAll(anyOf.get(i), pointer + "/anyOf/" + i, tool, nowRequired);
        }
        if (schema.has("default") && schema.get("default").isNull()) {
            schema.remove("default");
        }
    }

    // --- MCP Inspector's --strict lint ---------------------------------------------------------------------------

    private static final Set<String> BOOLEAN_VALUED =
            Set.of("additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems");
    private static final List<String> SUBSCHEMA = List.of(
            "items",
            "contains",
            "not",
            "propertyNames",
            "if",
            "then",
            "else",
            "additionalProperties",
            "unevaluatedProperties",
            "additionalItems",
            "unevaluatedItems",
            "contentSchema");
    private static final List<String> SUBSCHEMA_LISTS = List.of("allOf", "anyOf", "oneOf", "prefixItems");
    private static final List<String> SUBSCHEMA_MAPS =
            List.of("properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions");
    private static final Set<String> CONSTRAINING = Set.of(
            "type",
            "enum",
            "const",
            "multipleOf",
            "maximum",
            "exclusiveMaximum",
            "minimum",
            "exclusiveMinimum",
            "maxLength",
            "minLength",
            "pattern",
            "format",
            "contentMediaType",
            "contentEncoding",
            "contentSchema",
            "maxItems",
            "minItems",
            "uniqueItems",
            "maxContains",
            "minContains",
            "maxProperties",
            "minProperties",
            "required",
            "dependentRequired",
            "allOf",
            "anyOf",
            "oneOf",
            "not",
            "items",
            "prefixItems",
            "contains",
            "additionalItems",
            "unevaluatedItems",
            "properties",
            "patternProperties",
            "additionalProperties",
            "unevaluatedProperties",
            "propertyNames",
            "dependentSchemas",
            "dependencies",
            "$ref",
            "$dynamicRef",
            "$recursiveRef");

    /**
     * Inspector's rules: a bare boolean where a schema object is expected (error), a type array (warning: not
     * portable, write anyOf), a {@code $ref} outside the document (warning), a schema constraining nothing (warning).
     */
    private static void lint(JsonNode node, String at, String keyword, List<String> findings) {
        if (node.isBoolean()) {
            if (keyword == null || !BOOLEAN_VALUED.contains(keyword)) {
                findings.add(at + ": boolean schema");
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        if (node.path("type").isArray()) {
            findings.add(at + ": type array " + node.get("type"));
        }
        if (node.path("$ref").isTextual() && !node.get("$ref").textValue().startsWith("#")) {
            findings.add(at + ": remote $ref");
        }
        boolean constrains = false;
        for (var names = node.fieldNames(); names.hasNext(); ) {
            constrains |= CONSTRAINING.contains(names.next());
        }
        constrains |= node.has("if") && (node.has("then") || node.has("else"));
        if (!constrains && !"not".equals(keyword)) {
            findings.add(at + ": schema constrains nothing");
        }
        for (String map : SUBSCHEMA_MAPS) {
            if (node.get(map) instanceof ObjectNode members) {
                members.properties().forEach(m -> lint(m.getValue(), at + "." + map + "." + m.getKey(), map, findings));
            }
        }
        for (String list : SUBSCHEMA_LISTS) {
            JsonNode members = node.path(list);
            for (int i = 0; i < members.size(); i++) {
                lint(members.get(i), at + "." + list + "[" + i + "]", list, findings);
            }
        }
        for (String single : SUBSCHEMA) {
            JsonNode member = node.get(single);
            if (member == null) {
                continue;
            }
            if ("items".equals(single) && member.isArray()) {
                for (int i = 0; i < member.size(); i++) {
                    lint(member.get(i), at + ".items[" + i + "]", single, findings);
                }
            } else {
                lint(member, at + "." + single, single, findings);
            }
        }
    }
}
