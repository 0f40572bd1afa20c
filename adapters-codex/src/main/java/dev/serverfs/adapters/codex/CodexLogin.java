package dev.serverfs.adapters.codex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.provider.ProviderLogin;
import java.net.URI;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Codex's {@code auth.json} ({@link ProviderLogin}): an API key ({@code OPENAI_API_KEY}), never refreshed, or a
 * ChatGPT login ({@code tokens}: {@code id_token}, {@code access_token}, {@code refresh_token}, {@code account_id};
 * {@code last_refresh}), which Codex refreshes once {@code last_refresh} is {@link #CODEX_INTERVAL} old or a request
 * is refused (earlier releases), or a few minutes before the access token's {@code exp} (0.171). Here it is
 * refreshed sooner, when either could come during the task, with the refresh both send: a JSON body with Codex's
 * public client id (OAuth 2.0's refresh grant, no scope: the granted one), posted to its token endpoint, which {@code
 * CODEX_REFRESH_TOKEN_URL_OVERRIDE} replaces as it does for Codex. Fields this class does not know are kept.
 */
record CodexLogin(URI endpoint) implements ProviderLogin.Format {
    /** Codex's variable for another token endpoint. */
    static final String ENDPOINT_OVERRIDE = "CODEX_REFRESH_TOKEN_URL_OVERRIDE";

    static final URI ENDPOINT = URI.create("https://auth.openai.com/oauth/token");
    static final String CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";
    /** How old Codex lets {@code last_refresh} become before it refreshes on its own. */
    static final Duration CODEX_INTERVAL = Duration.ofDays(8);

    /**
     * The login at {@code file} for a task timing out at {@code deadline}, refreshed at the endpoint the server's
     * {@code environment} names.
     */
    static ProviderLogin at(Path file, Map<String, String> environment, Instant deadline) {
        return new ProviderLogin(
                file, new CodexLogin(ProviderLogin.endpoint(environment, ENDPOINT_OVERRIDE, ENDPOINT)), deadline);
    }

    @Override
    public String provider() {
        return "codex";
    }

    @Override
    public Optional<ProviderLogin.Refresh> due(ObjectNode login, Instant until) {
        JsonNode tokens = login.path("tokens");
        String refreshToken = tokens.path("refresh_token").asText("");
        if (refreshToken.isEmpty()) {
            return Optional.empty();
        }
        boolean stale = lastRefresh(login)
                .map(last -> !last.plus(CODEX_INTERVAL).isAfter(until))
                .orElse(true);
        boolean expiring = ProviderLogin.expiry(tokens.path("access_token").asText(""))
                .map(exp -> !exp.isAfter(until))
                .orElse(false);
        if (!stale && !expiring) {
            return Optional.empty();
        }
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("client_id", CLIENT_ID).put("grant_type", "refresh_token").put("refresh_token", refreshToken);
        return Optional.of(new ProviderLogin.Refresh(endpoint, body));
    }

    @Override
    public Optional<ObjectNode> refreshed(ObjectNode login, JsonNode answer, Instant now) {
        if (!(login.get("tokens") instanceof ObjectNode tokens)
                || !answer.path("access_token").isTextual()) {
            return Optional.empty();
        }
        for (String field : List.of("id_token", "access_token", "refresh_token")) {
            JsonNode value = answer.get(field);
            if (value != null && value.isTextual() && !value.asText().isEmpty()) {
                tokens.put(field, value.asText());
            }
        }
        login.put("last_refresh", now.toString());
        return Optional.of(login);
    }

    @Override
    public ObjectNode forView(ObjectNode login) {
        ObjectNode view = login.deepCopy();
        if (view.get("tokens") instanceof ObjectNode tokens && tokens.has("refresh_token")) {
            tokens.put("refresh_token", "");
        }
        return view;
    }

    private static Optional<Instant> lastRefresh(ObjectNode login) {
        try {
            return Optional.of(Instant.parse(login.path("last_refresh").asText("")));
        } catch (DateTimeException e) {
            return Optional.empty();
        }
    }
}
