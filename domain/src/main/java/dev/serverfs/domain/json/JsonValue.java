package dev.serverfs.domain.json;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** A JSON value. Objects keep insertion order; the canonical writer sorts keys. Numbers are finite by type. */
public sealed interface JsonValue {

    /** JSON {@code null}. */
    record JsonNull() implements JsonValue {
        public static final JsonNull INSTANCE = new JsonNull();
    }

    record JsonBool(boolean value) implements JsonValue {}

    /** An integral or decimal number; never NaN or infinite. */
    record JsonNumber(BigDecimal value) implements JsonValue {
        public JsonNumber {
            Objects.requireNonNull(value, "value");
        }
    }

    record JsonString(String value) implements JsonValue {
        public JsonString {
            Objects.requireNonNull(value, "value");
        }
    }

    record JsonArray(List<JsonValue> items) implements JsonValue {
        public JsonArray {
            items = List.copyOf(items);
        }
    }

    record JsonObject(Map<String, JsonValue> members) implements JsonValue {
        public JsonObject {
            members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
            members.forEach((k, v) -> {
                Objects.requireNonNull(k, "key");
                Objects.requireNonNull(v, "value");
            });
        }

        public Optional<JsonValue> get(String key) {
            return Optional.ofNullable(members.get(key));
        }
    }

    static JsonValue of(String value) {
        return value == null ? JsonNull.INSTANCE : new JsonString(value);
    }

    static JsonValue of(long value) {
        return new JsonNumber(BigDecimal.valueOf(value));
    }

    static JsonValue of(boolean value) {
        return new JsonBool(value);
    }

    static JsonValue ofNullable(Optional<String> value) {
        return value.<JsonValue>map(JsonString::new).orElse(JsonNull.INSTANCE);
    }

    static JsonArray arrayOf(List<? extends JsonValue> items) {
        return new JsonArray(new ArrayList<>(items));
    }

    static JsonArray stringsOf(List<String> values) {
        return new JsonArray(values.stream().<JsonValue>map(JsonString::new).toList());
    }

    /** Starts an object builder that keeps insertion order. */
    static ObjectBuilder object() {
        return new ObjectBuilder();
    }

    /** Builds a {@link JsonObject}; a later put of the same key replaces the earlier one. */
    final class ObjectBuilder {
        private final Map<String, JsonValue> members = new LinkedHashMap<>();

        private ObjectBuilder() {}

        public ObjectBuilder put(String key, JsonValue value) {
            members.put(key, value);
            return this;
        }

        public ObjectBuilder put(String key, String value) {
            return put(key, JsonValue.of(value));
        }

        public ObjectBuilder put(String key, long value) {
            return put(key, JsonValue.of(value));
        }

        public ObjectBuilder put(String key, boolean value) {
            return put(key, JsonValue.of(value));
        }

        public ObjectBuilder put(String key, Optional<String> value) {
            return put(key, JsonValue.ofNullable(value));
        }

        public JsonObject build() {
            return new JsonObject(members);
        }
    }
}
