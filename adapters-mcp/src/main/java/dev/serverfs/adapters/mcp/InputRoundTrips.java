package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The transport side of multi round-trip requests (2026-07-28 basic/patterns/mrtr) for any request that may answer
 * {@code input_required} ({@code tools/call}, {@code prompts/get}, {@code resources/read}): reads a retry's
 * {@code inputResponses} and {@code requestState} into an {@link InputRound} (malformed responses or a state that
 * fails verification: -32602, nothing runs), and writes a handler's {@link InputRequired} as an
 * {@code InputRequiredResult} with a sealed state, refusing requests the client cannot fulfil with -32021.
 */
final class InputRoundTrips {

    static final String INPUT_RESPONSES = "inputResponses";
    static final String REQUEST_STATE = "requestState";

    private final RequestStateCodec codec;

    InputRoundTrips(Clock clock) {
        this.codec = new RequestStateCodec(clock);
    }

    /** A retry's round, or the error that refuses the request. */
    sealed interface Opened {
        record Round(InputRound round) implements Opened {}

        record Refused(ObjectNode error) implements Opened {}
    }

    /** Reads the round of the request {@code binding} from its {@code params} (2026-07-28 InputResponseRequestParams). */
    Opened open(JsonNode id, RequestMeta meta, Supplier<RequestStateCodec.Binding> binding, JsonNode params) {
        JsonNode responses = params == null ? null : params.get(INPUT_RESPONSES);
        ObjectNode answers = InputRound.EMPTY;
        if (responses != null) {
            if (!(responses instanceof ObjectNode object)) {
                return refused(id, "Invalid params: inputResponses must be an object");
            }
            for (var entry : object.properties()) {
                // The spec's InputResponse is an ElicitResult, CreateMessageResult or ListRootsResult: always an
                // object.
                if (!entry.getValue().isObject()) {
                    return refused(id, "Invalid params: every inputResponses value must be an object");
                }
            }
            answers = object;
        }
        Optional<String> state = Optional.empty();
        JsonNode token = params == null ? null : params.get(REQUEST_STATE);
        if (token != null) {
            Optional<RequestStateCodec.Opened> opened =
                    token.isTextual() ? codec.open(token.textValue(), binding.get()) : Optional.empty();
            if (opened.isEmpty()) {
                // One answer for forged, altered, expired or foreign state: the client learns nothing about which.
                return refused(id, "Invalid params: requestState failed verification");
            }
            state = opened.get().state();
        }
        return new Opened.Round(new InputRound(answers, state, meta.clientCapabilities()));
    }

    /**
     * The {@code InputRequiredResult} answering {@code needed}, or -32021 (HTTP 400 at the transport) when it asks for
     * input the client did not declare it can give (spec server requirement 7: never send such a request).
     */
    ObjectNode answer(
            JsonNode id, RequestMeta meta, Supplier<RequestStateCodec.Binding> binding, InputRequired needed) {
        List<String> missing = needed.requests().values().stream()
                .map(InputRequest::capability)
                .filter(c -> !meta.declares(c))
                .distinct()
                .sorted()
                .toList();
        if (!missing.isEmpty()) {
            return McpDispatcher.missingCapabilityError(id, missing);
        }
        ObjectNode result = Json.object();
        result.put("resultType", "input_required");
        if (!needed.requests().isEmpty()) {
            ObjectNode requests = result.putObject("inputRequests");
            needed.requests().forEach((key, request) -> {
                ObjectNode wire = requests.putObject(key);
                wire.put("method", request.method());
                wire.set("params", Json.WIRE.valueToTree(request.params()));
            });
        }
        result.put(REQUEST_STATE, codec.seal(binding.get(), needed.state()));
        return JsonRpc.result(id, result);
    }

    private static Opened refused(JsonNode id, String message) {
        return new Opened.Refused(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, message));
    }
}
