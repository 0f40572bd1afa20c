package dev.serverfs.adapters.mcp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One request a handler needs the client to fulfil before it can finish (2026-07-28 basic/patterns/mrtr,
 * {@code InputRequest}): an elicitation form, a sampling message or a roots listing. Plain maps and strings only, so
 * tools outside this adapter build them without JSON types; {@link #capability} is the client capability the request
 * needs (a server never sends one the client did not declare).
 */
public record InputRequest(String method, Map<String, Object> params) {

    static final String ELICITATION = "elicitation/create";
    static final String SAMPLING = "sampling/createMessage";
    static final String ROOTS = "roots/list";

    public InputRequest {
        Objects.requireNonNull(method, "method");
        if (!List.of(ELICITATION, SAMPLING, ROOTS).contains(method)) {
            throw new IllegalArgumentException("not an input request method: " + method);
        }
        params = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(params, "params")));
    }

    /**
     * A form elicitation: {@code fields} maps each field name to its JSON Schema primitive type ({@code string},
     * {@code boolean}, {@code number}, {@code integer}), in the order the form shows them; every field is required.
     */
    public static InputRequest form(String message, Map<String, String> fields) {
        Map<String, Object> properties = new LinkedHashMap<>();
        fields.forEach((field, type) -> properties.put(field, Map.of("type", type)));
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", new ArrayList<>(fields.keySet()));
        return elicitation(message, schema);
    }

    /**
     * A form elicitation with a full {@code requestedSchema} (the spec's restricted JSON Schema: a flat object of
     * primitive properties, e.g. a string with an {@code enum} of choices), for forms {@link #form} cannot express.
     */
    public static InputRequest elicitation(String message, Map<String, Object> requestedSchema) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("mode", "form");
        params.put("message", Objects.requireNonNull(message, "message"));
        params.put("requestedSchema", Objects.requireNonNull(requestedSchema, "requestedSchema"));
        return new InputRequest(ELICITATION, params);
    }

    /** A sampling request of one user text message, at most {@code maxTokens} tokens in the answer. */
    public static InputRequest sampling(String userText, int maxTokens) {
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("type", "text");
        content.put("text", Objects.requireNonNull(userText, "userText"));
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("role", "user");
        message.put("content", content);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("messages", List.of(message));
        params.put("maxTokens", maxTokens);
        return new InputRequest(SAMPLING, params);
    }

    /** A request for the client's roots. */
    public static InputRequest listRoots() {
        return new InputRequest(ROOTS, Map.of());
    }

    /** The top-level client capability this request needs: {@code elicitation}, {@code sampling} or {@code roots}. */
    public String capability() {
        return switch (method) {
            case ELICITATION -> "elicitation";
            case SAMPLING -> "sampling";
            default -> "roots";
        };
    }
}
