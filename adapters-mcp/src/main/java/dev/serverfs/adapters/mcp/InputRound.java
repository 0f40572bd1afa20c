package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one round of a multi round-trip call brings a handler (2026-07-28 basic/patterns/mrtr): the client's
 * {@code inputResponses} by the keys of the earlier {@link InputRequest}s, the handler's own state when the retry
 * echoed a {@code requestState} that passed verification, and which input kinds the client declared. Typed getters
 * only; a response of the wrong shape reads as absent, so the handler asks again (the spec's SHOULD for missing
 * input). Session (2025-11-25) calls get {@link #NONE}: no responses, no state, nothing declared.
 */
public final class InputRound {

    /** No responses, or no capabilities: read, never written. */
    static final ObjectNode EMPTY = Json.object();

    /** The round of a call that cannot carry input (a session call). */
    static final InputRound NONE = new InputRound(EMPTY, Optional.empty(), EMPTY);

    private final ObjectNode responses;
    private final Optional<String> state;
    private final ObjectNode capabilities;

    /**
     * {@code capabilities} is the request's {@code clientCapabilities} object as received (only read: a round lives
     * no longer than its request), so no per-call copy of the declared kinds is made.
     */
    InputRound(ObjectNode responses, Optional<String> state, ObjectNode capabilities) {
        this.responses = Objects.requireNonNull(responses, "responses");
        this.state = Objects.requireNonNull(state, "state");
        this.capabilities = Objects.requireNonNull(capabilities, "capabilities");
    }

    /**
     * Whether the client declared the capability an input kind needs ({@code elicitation}, {@code sampling},
     * {@code roots}; see {@link InputRequest#capability}): an object under that name in its capabilities.
     */
    public boolean declares(String capability) {
        return capabilities.get(capability) instanceof ObjectNode;
    }

    /** Whether the client can fulfil {@code request}. */
    public boolean canAsk(InputRequest request) {
        return declares(request.capability());
    }

    /** The handler's state from the previous round, verified; empty on a first call or a retry without state. */
    public Optional<String> state() {
        return state;
    }

    /** Whether the client sent any response under {@code key}. */
    public boolean answered(String key) {
        return responses.get(key) instanceof ObjectNode;
    }

    /**
     * The form content of an elicitation the user accepted (primitive values and string lists as Java values); empty
     * when there is no such response or the user declined or cancelled.
     */
    public Optional<Map<String, Object>> accepted(String key) {
        JsonNode response = responses.get(key);
        if (response == null
                || !"accept".equals(response.path("action").asText())
                || !(response.get("content") instanceof ObjectNode content)) {
            return Optional.empty();
        }
        Map<String, Object> values = new LinkedHashMap<>();
        content.properties().forEach(e -> values.put(e.getKey(), Json.WIRE.convertValue(e.getValue(), Object.class)));
        return Optional.of(values);
    }

    /** The text a sampling response carries (its text content, or the text blocks of a content list joined). */
    public Optional<String> sampledText(String key) {
        JsonNode response = responses.get(key);
        if (response == null || !response.path("role").isTextual()) {
            return Optional.empty();
        }
        JsonNode content = response.get("content");
        List<JsonNode> blocks = new ArrayList<>();
        if (content != null && content.isArray()) {
            content.forEach(blocks::add);
        } else if (content != null) {
            blocks.add(content);
        }
        StringBuilder text = new StringBuilder();
        blocks.stream()
                .filter(b ->
                        "text".equals(b.path("type").asText()) && b.path("text").isTextual())
                .forEach(b -> text.append(b.get("text").textValue()));
        return blocks.isEmpty() ? Optional.empty() : Optional.of(text.toString());
    }

    /** The root URIs of a roots response. */
    public Optional<List<String>> rootUris(String key) {
        JsonNode roots = responses.path(key).get("roots");
        if (roots == null || !roots.isArray()) {
            return Optional.empty();
        }
        List<String> uris = new ArrayList<>();
        roots.forEach(root -> {
            if (root.path("uri").isTextual()) {
                uris.add(root.get("uri").textValue());
            }
        });
        return Optional.of(List.copyOf(uris));
    }
}
