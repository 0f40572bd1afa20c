package dev.serverfs.adapters.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.provider.ProviderLogin;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Claude Code's {@code .credentials.json}: when its tokens are refreshed, with what request, and what a view sees. */
class ClaudeLoginTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");
    /** What a task two hours long, started {@link #NOW}, needs its tokens to outlast. */
    private static final Instant UNTIL = NOW.plus(Duration.ofHours(2)).plus(ProviderLogin.MARGIN);

    private static final ClaudeLogin FORMAT = new ClaudeLogin(URI.create("https://platform.claude.com/v1/oauth/token"));

    private static ObjectNode login(Instant expiresAt) throws Exception {
        return (ObjectNode)
                JSON.readTree("{\"claudeAiOauth\":{\"accessToken\":\"access-1\",\"refreshToken\":\"refresh-1\","
                        + "\"expiresAt\":" + expiresAt.toEpochMilli() + ",\"scopes\":[\"user:inference\"],"
                        + "\"subscriptionType\":\"max\"},\"other\":true}");
    }

    @Test
    void a_login_is_refreshed_before_it_could_run_out_during_a_task() throws Exception {
        assertEquals(Optional.empty(), FORMAT.due(login(UNTIL.plusSeconds(1)), UNTIL));
        ProviderLogin.Refresh refresh =
                FORMAT.due(login(NOW.plus(Duration.ofHours(1))), UNTIL).orElseThrow();
        assertEquals(
                "{\"grant_type\":\"refresh_token\",\"refresh_token\":\"refresh-1\","
                        + "\"client_id\":\"9d1c250a-e61b-44d9-88ed-5944d1962f5e\"}",
                refresh.body().toString());
        assertEquals(FORMAT.endpoint(), refresh.endpoint());
        ObjectNode blank = login(Instant.EPOCH);
        ((ObjectNode) blank.get("claudeAiOauth")).put("refreshToken", "");
        assertEquals(Optional.empty(), FORMAT.due(blank, UNTIL), "nothing to refresh with");
        assertEquals(Optional.empty(), FORMAT.due((ObjectNode) JSON.readTree("{}"), UNTIL));
    }

    @Test
    void the_answer_sets_the_tokens_and_their_expiry_and_the_view_gets_no_refresh_token() throws Exception {
        JsonNode answer = JSON.readTree("{\"access_token\":\"access-2\",\"refresh_token\":\"refresh-2\","
                + "\"expires_in\":28800,\"scope\":\"user:inference user:profile\"}");
        ObjectNode refreshed =
                FORMAT.refreshed(login(Instant.EPOCH), answer, NOW).orElseThrow();
        JsonNode oauth = refreshed.path("claudeAiOauth");
        assertEquals("access-2", oauth.path("accessToken").asText());
        assertEquals("refresh-2", oauth.path("refreshToken").asText());
        assertEquals(
                NOW.plusSeconds(28800).toEpochMilli(), oauth.path("expiresAt").asLong());
        assertEquals(
                "[\"user:inference\",\"user:profile\"]", oauth.path("scopes").toString());
        assertEquals("max", oauth.path("subscriptionType").asText());
        assertTrue(refreshed.path("other").asBoolean(), "fields it does not know are kept");
        assertEquals(
                Optional.empty(),
                FORMAT.refreshed(login(Instant.EPOCH), JSON.readTree("{\"access_token\":\"a\"}"), NOW),
                "an answer without its lifetime is not used");

        ObjectNode view = FORMAT.forView(refreshed);
        assertEquals("", view.at("/claudeAiOauth/refreshToken").asText());
        assertEquals("access-2", view.at("/claudeAiOauth/accessToken").asText());
    }

    @Test
    void claude_own_variable_names_another_oauth_base() {
        java.nio.file.Path file = java.nio.file.Path.of("/nonexistent/.credentials.json");
        assertEquals(file, ClaudeLogin.at(file, Map.of(), NOW).file());
        assertEquals(
                URI.create("http://127.0.0.1:9"),
                ProviderLogin.endpoint(
                        java.util.Map.of(ClaudeLogin.BASE_OVERRIDE, "http://127.0.0.1:9"),
                        ClaudeLogin.BASE_OVERRIDE,
                        ClaudeLogin.BASE));
    }
}
