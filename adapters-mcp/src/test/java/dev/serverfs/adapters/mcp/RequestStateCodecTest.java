package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RequestStateCodecTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-08-01T10:00:00Z"));
    private final RequestStateCodec codec = new RequestStateCodec(clock);
    private final RequestStateCodec.Binding binding = RequestStateCodec.Binding.of(
            "tools/call", "t", Json.read("{\"a\":1,\"b\":[{\"y\":2,\"x\":1}]}".getBytes()));

    @Test
    void a_sealed_state_opens_for_the_same_request_with_arguments_in_any_member_order() {
        String token = codec.seal(binding, Optional.of("step-2"));
        RequestStateCodec.Binding reordered = RequestStateCodec.Binding.of(
                "tools/call", "t", Json.read("{\"b\":[{\"x\":1,\"y\":2}],\"a\":1}".getBytes()));

        assertEquals(
                Optional.of("step-2"),
                codec.open(token, reordered).orElseThrow().state());
        assertEquals(
                Optional.empty(),
                codec.open(codec.seal(binding, Optional.empty()), binding)
                        .orElseThrow()
                        .state());
    }

    @Test
    void altered_truncated_forged_foreign_and_expired_states_do_not_open() {
        String token = codec.seal(binding, Optional.of("admin=false"));
        String body = token.substring(0, token.indexOf('.'));
        String tag = token.substring(token.indexOf('.') + 1);
        String forgedBody = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(new String(Base64.getUrlDecoder().decode(body), StandardCharsets.UTF_8)
                        .replace("admin=false", "admin=true!")
                        .getBytes(StandardCharsets.UTF_8));

        assertTrue(codec.open(token + "-TAMPERED", binding).isEmpty());
        assertTrue(codec.open(forgedBody + "." + tag, binding).isEmpty());
        assertTrue(codec.open(body, binding).isEmpty());
        assertTrue(codec.open(body + ".", binding).isEmpty());
        assertTrue(codec.open("%%%." + tag, binding).isEmpty());
        assertTrue(
                codec.open("x".repeat(RequestStateCodec.MAX_CHARS + 1), binding).isEmpty());
        assertTrue(new RequestStateCodec(clock).open(token, binding).isEmpty(), "another process's key");
        assertTrue(codec.open(token, RequestStateCodec.Binding.of("tools/call", "other", null))
                .isEmpty());
        assertTrue(codec.open(token, RequestStateCodec.Binding.of("prompts/get", "t", null))
                .isEmpty());
        assertTrue(codec.open(token, RequestStateCodec.Binding.of("tools/call", "t", null))
                .isEmpty());

        clock.advance(RequestStateCodec.TTL);
        assertFalse(codec.open(token, binding).isEmpty(), "still valid at its expiry instant");
        clock.advance(Duration.ofMillis(1));
        assertTrue(codec.open(token, binding).isEmpty());
    }

    @Test
    void the_state_is_signed_not_encrypted_and_names_no_more_than_the_request() {
        String token = codec.seal(binding, Optional.of("s"));
        String payload = new String(
                Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))), StandardCharsets.UTF_8);

        assertTrue(payload.startsWith("{\"v\":1,\"m\":\"tools/call\",\"n\":\"t\",\"a\":\""), payload);
        assertTrue(payload.endsWith(",\"s\":\"s\"}"), payload);
    }
}
