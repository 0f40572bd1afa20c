package dev.serverfs.adapters.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.Timestamps;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Typed, strict reads of one JSON object: strings must be JSON strings, integers JSON integers (never booleans or
 * decimals), an optional member may be absent or {@code null}. A mismatch throws the side's code: {@code
 * INVALID_REQUEST} for params the Bridge reads, {@code AGENT_BRIDGE_PROTOCOL_ERROR} for results the client reads.
 */
final class WireFields {
    private final JsonNode node;
    private final ErrorCode invalid;

    private WireFields(JsonNode node, ErrorCode invalid) {
        this.node = node;
        this.invalid = invalid;
    }

    /** Params of a request (the codec already checked the key set). */
    static WireFields params(JsonNode params) {
        return new WireFields(params, ErrorCode.INVALID_REQUEST);
    }

    /** A result object returned by the Bridge. */
    static WireFields result(JsonNode result) {
        WireFields fields = new WireFields(result, ErrorCode.AGENT_BRIDGE_PROTOCOL_ERROR);
        if (result == null || !result.isObject()) {
            throw fields.fail("a result member is not an object");
        }
        return fields;
    }

    String string(String name) {
        JsonNode value = node.get(name);
        if (value == null || !value.isTextual()) {
            throw fail(name + " is a string");
        }
        return value.textValue();
    }

    Optional<String> optionalString(String name) {
        return present(name).map(v -> string(name));
    }

    long integer(String name) {
        JsonNode value = node.get(name);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw fail(name + " is an integer");
        }
        return value.longValue();
    }

    Optional<Long> optionalInteger(String name) {
        return present(name).map(v -> integer(name));
    }

    boolean bool(String name) {
        JsonNode value = node.get(name);
        if (value == null || !value.isBoolean()) {
            throw fail(name + " is a boolean");
        }
        return value.booleanValue();
    }

    Instant time(String name) {
        String text = string(name);
        try {
            return Timestamps.parse(text);
        } catch (DateTimeException e) {
            throw fail(name + " is an ISO-8601 timestamp");
        }
    }

    Optional<Instant> optionalTime(String name) {
        return present(name).map(v -> time(name));
    }

    /** A member embedded as JSON (payloads, manifests, resolutions): any non-null JSON value. */
    JsonNode json(String name) {
        return present(name).orElseThrow(() -> fail(name + " is missing"));
    }

    Optional<JsonNode> optionalJson(String name) {
        return present(name);
    }

    Optional<WireFields> optionalObject(String name) {
        return present(name).map(v -> {
            if (!v.isObject()) {
                throw fail(name + " is an object");
            }
            return new WireFields(v, invalid);
        });
    }

    /** A list of objects; each element must be an object. */
    List<JsonNode> objects(String name) {
        JsonNode value = node.get(name);
        if (value == null || !value.isArray()) {
            throw fail(name + " is a list");
        }
        List<JsonNode> items = new ArrayList<>();
        value.forEach(item -> {
            if (!item.isObject()) {
                throw fail(name + " holds objects");
            }
            items.add(item);
        });
        return items;
    }

    Optional<List<String>> optionalStrings(String name) {
        return present(name).map(value -> {
            if (!value.isArray()) {
                throw fail(name + " is a list of strings");
            }
            List<String> items = new ArrayList<>();
            value.forEach(item -> {
                if (!item.isTextual()) {
                    throw fail(name + " is a list of strings");
                }
                items.add(item.textValue());
            });
            return items;
        });
    }

    ServerFsException fail(String message) {
        return new ServerFsException(
                invalid, invalid == ErrorCode.INVALID_REQUEST ? message : "invalid Bridge response: " + message);
    }

    private Optional<JsonNode> present(String name) {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(value);
    }
}
