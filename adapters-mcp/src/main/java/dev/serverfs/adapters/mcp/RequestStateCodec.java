package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals and opens the {@code requestState} of a multi round-trip request (2026-07-28 basic/patterns/mrtr, server
 * requirements 4 and 5): {@code base64url(payload) "." base64url(HMAC-SHA256(payload))} under a random key made per
 * process, so a state outlives neither a restart nor its {@link #TTL}. The payload binds the state to the request it
 * answers (method, name, a digest of the arguments) and carries the handler's own state; it is signed, not
 * encrypted, so it never holds secrets or host paths. Any failure to open is one answer (empty), never a reason.
 */
final class RequestStateCodec {

    /** How long a state may be echoed back; a user answering a form has this long. */
    static final Duration TTL = Duration.ofMinutes(10);

    /** The longest {@code requestState} accepted on a retry, in characters. */
    static final int MAX_CHARS = 16 * 1024;

    private static final String MAC = "HmacSHA256";
    private static final int VERSION = 1;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final SecretKeySpec key;
    private final Clock clock;

    RequestStateCodec(Clock clock) {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        this.key = new SecretKeySpec(secret, MAC);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The request a state belongs to: its method, the tool's or prompt's name, and its arguments. */
    record Binding(String method, String name, String argumentsDigest) {

        Binding {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(argumentsDigest, "argumentsDigest");
        }

        /** The binding of a request with these arguments (null or absent arguments read as {@code {}}). */
        static Binding of(String method, String name, JsonNode arguments) {
            JsonNode args = arguments == null || arguments.isNull() ? Json.object() : arguments;
            try {
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(Json.writeBytes(canonical(args)));
                return new Binding(method, name, ENCODER.encodeToString(digest));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("SHA-256 is unavailable", e);
            }
        }
    }

    /** A sealed state for the next round of the request {@code binding}, carrying the handler's {@code state}. */
    String seal(Binding binding, Optional<String> state) {
        ObjectNode payload = Json.object();
        payload.put("v", VERSION);
        payload.put("m", binding.method());
        payload.put("n", binding.name());
        payload.put("a", binding.argumentsDigest());
        payload.put("e", clock.millis() + TTL.toMillis());
        state.ifPresent(s -> payload.put("s", s));
        byte[] body = Json.writeBytes(payload);
        return ENCODER.encodeToString(body) + "." + ENCODER.encodeToString(mac(body));
    }

    /** A state that opened: the handler's own state, if it had one. */
    record Opened(Optional<String> state) {}

    /** The opened state when {@code token} was sealed here, for {@code binding}, and has not expired; else empty. */
    Optional<Opened> open(String token, Binding binding) {
        if (token.length() > MAX_CHARS) {
            return Optional.empty();
        }
        int dot = token.indexOf('.');
        if (dot <= 0 || dot != token.lastIndexOf('.')) {
            return Optional.empty();
        }
        byte[] body;
        byte[] tag;
        try {
            body = DECODER.decode(token.substring(0, dot));
            tag = DECODER.decode(token.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        // Constant-time comparison: the tag check must not tell an attacker how much of a forgery was right.
        if (!MessageDigest.isEqual(mac(body), tag)) {
            return Optional.empty();
        }
        JsonNode payload = Json.read(body);
        boolean valid = payload.path("v").asInt() == VERSION
                && binding.method().equals(payload.path("m").asText(null))
                && binding.name().equals(payload.path("n").asText(null))
                && binding.argumentsDigest().equals(payload.path("a").asText(null))
                && payload.path("e").canConvertToLong()
                && clock.millis() <= payload.path("e").longValue();
        if (!valid) {
            return Optional.empty();
        }
        JsonNode state = payload.get("s");
        return Optional.of(
                new Opened(state != null && state.isTextual() ? Optional.of(state.textValue()) : Optional.empty()));
    }

    private byte[] mac(byte[] body) {
        try {
            Mac mac = Mac.getInstance(MAC);
            mac.init(key);
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is unavailable", e);
        }
    }

    /** The same JSON with every object's members in name order, so equal arguments digest equally. */
    private static JsonNode canonical(JsonNode node) {
        if (node instanceof ObjectNode object) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            ObjectNode sorted = Json.object();
            names.forEach(n -> sorted.set(n, canonical(object.get(n))));
            return sorted;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = Json.WIRE.createArrayNode();
            array.forEach(e -> copy.add(canonical(e)));
            return copy;
        }
        return node;
    }
}
