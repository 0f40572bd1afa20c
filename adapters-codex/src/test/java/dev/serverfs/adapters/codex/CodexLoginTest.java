package dev.serverfs.adapters.codex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.provider.ProviderLogin;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Codex's {@code auth.json}: when its tokens are refreshed, with what request, and what a view sees. */
class CodexLoginTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");
    /** What a task two hours long, started {@link #NOW}, needs its tokens to outlast. */
    private static final Instant UNTIL = NOW.plus(Duration.ofHours(2)).plus(ProviderLogin.MARGIN);

    private static final CodexLogin FORMAT = new CodexLogin(CodexLogin.ENDPOINT);

    private static String jwt(Instant exp) {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return b64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + b64.encodeToString(("{\"exp\":" + exp.getEpochSecond() + "}").getBytes(StandardCharsets.UTF_8))
                + ".sig";
    }

    private static ObjectNode chatgpt(Instant lastRefresh, Instant accessExpires) throws Exception {
        return (ObjectNode)
                JSON.readTree("{\"OPENAI_API_KEY\":null,\"tokens\":{\"id_token\":\"id-1\",\"access_token\":\""
                        + jwt(accessExpires)
                        + "\",\"refresh_token\":\"refresh-1\",\"account_id\":\"acc-1\"},\"last_refresh\":\""
                        + lastRefresh + "\",\"future_field\":1}");
    }

    @Test
    void a_chatgpt_login_is_refreshed_before_codex_would_and_before_its_access_token_runs_out() throws Exception {
        Instant farExpiry = NOW.plus(Duration.ofDays(30));
        assertEquals(Optional.empty(), FORMAT.due(chatgpt(NOW.minus(Duration.ofDays(1)), farExpiry), UNTIL));
        Instant almostEightDays = UNTIL.minus(CodexLogin.CODEX_INTERVAL).minusSeconds(1);
        ProviderLogin.Refresh refresh =
                FORMAT.due(chatgpt(almostEightDays, farExpiry), UNTIL).orElseThrow();
        assertEquals(CodexLogin.ENDPOINT, refresh.endpoint());
        assertEquals(
                "{\"client_id\":\"app_EMoamEEZ73f0CkXaXp7hrann\",\"grant_type\":\"refresh_token\","
                        + "\"refresh_token\":\"refresh-1\"}",
                refresh.body().toString());
        assertTrue(
                FORMAT.due(chatgpt(NOW, NOW.plus(Duration.ofMinutes(30))), UNTIL)
                        .isPresent(),
                "access runs out");
        ObjectNode unknownAge = chatgpt(NOW, farExpiry);
        unknownAge.remove("last_refresh");
        assertTrue(FORMAT.due(unknownAge, UNTIL).isPresent(), "no last_refresh: Codex would refresh");
    }

    @Test
    void an_api_key_or_a_blank_refresh_token_is_never_refreshed() throws Exception {
        assertEquals(Optional.empty(), FORMAT.due((ObjectNode) JSON.readTree("{\"OPENAI_API_KEY\":\"sk-1\"}"), UNTIL));
        ObjectNode blank = chatgpt(Instant.EPOCH, Instant.EPOCH);
        ((ObjectNode) blank.get("tokens")).put("refresh_token", "");
        assertEquals(Optional.empty(), FORMAT.due(blank, UNTIL));
    }

    @Test
    void the_answer_replaces_the_tokens_it_carries_and_the_view_gets_no_refresh_token() throws Exception {
        ObjectNode login = chatgpt(Instant.EPOCH, Instant.EPOCH);
        JsonNode answer = JSON.readTree("{\"access_token\":\"access-2\",\"refresh_token\":\"refresh-2\"}");
        ObjectNode refreshed = FORMAT.refreshed(login, answer, NOW).orElseThrow();
        assertEquals("access-2", refreshed.at("/tokens/access_token").asText());
        assertEquals("refresh-2", refreshed.at("/tokens/refresh_token").asText());
        assertEquals("id-1", refreshed.at("/tokens/id_token").asText(), "an id token the answer lacks is kept");
        assertEquals(NOW.toString(), refreshed.path("last_refresh").asText());
        assertEquals(1, refreshed.path("future_field").asInt());
        assertEquals(Optional.empty(), FORMAT.refreshed(login, JSON.readTree("{\"error\":\"x\"}"), NOW));

        ObjectNode view = FORMAT.forView(refreshed);
        assertEquals("", view.at("/tokens/refresh_token").asText());
        assertEquals("access-2", view.at("/tokens/access_token").asText());
        assertEquals("refresh-2", refreshed.at("/tokens/refresh_token").asText(), "the login itself is not changed");
    }

    @Test
    void codex_own_variable_names_another_endpoint() {
        java.nio.file.Path file = java.nio.file.Path.of("/nonexistent/auth.json");
        String local = "http://127.0.0.1:9/oauth/token";
        assertEquals(
                URI.create(local),
                ProviderLogin.endpoint(
                        Map.of(CodexLogin.ENDPOINT_OVERRIDE, local),
                        CodexLogin.ENDPOINT_OVERRIDE,
                        CodexLogin.ENDPOINT));
        assertEquals(
                CodexLogin.ENDPOINT,
                ProviderLogin.endpoint(
                        Map.of(CodexLogin.ENDPOINT_OVERRIDE, "not a url"),
                        CodexLogin.ENDPOINT_OVERRIDE,
                        CodexLogin.ENDPOINT));
        assertEquals(file, CodexLogin.at(file, Map.of(), NOW).file());
    }
}
