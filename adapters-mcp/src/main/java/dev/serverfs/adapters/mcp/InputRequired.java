package dev.serverfs.adapters.mcp;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A handler's answer that it needs client input first (2026-07-28 basic/patterns/mrtr, {@code InputRequiredResult}):
 * the requests by key, and optional state the handler wants back on the retry. The transport seals that state with
 * an HMAC before it leaves (see {@link RequestStateCodec}); it is visible to the client, so it never holds secrets,
 * file contents or host paths. At least one of the two is present, as the spec requires.
 */
public record InputRequired(Map<String, InputRequest> requests, Optional<String> state)
        implements ToolReply, PromptReply, TaskTool.StartReply {

    /** The longest state a handler may carry between rounds, in characters. */
    static final int MAX_STATE_CHARS = 4096;

    public InputRequired {
        requests = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(requests, "requests")));
        Objects.requireNonNull(state, "state");
        if (requests.isEmpty() && state.isEmpty()) {
            throw new IllegalArgumentException("an input-required answer needs requests or state");
        }
        requests.forEach((key, request) -> {
            if (key.isEmpty()) {
                throw new IllegalArgumentException("input request keys are not empty");
            }
            Objects.requireNonNull(request, "request");
        });
        if (state.map(String::length).orElse(0) > MAX_STATE_CHARS) {
            throw new IllegalArgumentException("request state is longer than " + MAX_STATE_CHARS + " characters");
        }
    }

    /** Asks for {@code requests} with no state to carry. */
    public static InputRequired of(Map<String, InputRequest> requests) {
        return new InputRequired(requests, Optional.empty());
    }

    /** Asks for {@code requests} and wants {@code state} back, verified, on the retry. */
    public static InputRequired of(Map<String, InputRequest> requests, String state) {
        return new InputRequired(requests, Optional.of(state));
    }
}
