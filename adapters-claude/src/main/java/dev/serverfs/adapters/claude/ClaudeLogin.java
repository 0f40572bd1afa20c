package dev.serverfs.adapters.claude;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.provider.ProviderLogin;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Claude Code's {@code .credentials.json} ({@link ProviderLogin}): a claude.ai login in {@code claudeAiOauth}
 * ({@code accessToken}, {@code refreshToken}, {@code expiresAt} in epoch milliseconds, {@code scopes}, the plan),
 * which Claude refreshes two minutes before {@code expiresAt} (2.1.197; never without a refresh token). Here it is
 * refreshed sooner, when they could run out during the task, with the request Claude sends: a JSON body with its
 * public client id (OAuth 2.0's refresh grant; no scope, so the granted one), posted to its token endpoint below the
 * OAuth base that {@code CLAUDE_CODE_CUSTOM_OAUTH_URL} names. Fields this class does not know are kept.
 */
record ClaudeLogin(URI endpoint) implements ProviderLogin.Format {
    /** Claude's variable for another OAuth base address. */
    static final String BASE_OVERRIDE = "CLAUDE_CODE_CUSTOM_OAUTH_URL";

    static final URI BASE = URI.create("https://platform.claude.com");
    static final String TOKEN_PATH = "/v1/oauth/token";
    static final String CLIENT_ID = "9d1c250a-e61b-44d9-88ed-5944d1962f5e";
    static final String OAUTH = "claudeAiOauth";

    /**
     * The login at {@code file} for a task timing out at {@code deadline}, refreshed at the endpoint the server's
     * {@code environment} names.
     */
    static ProviderLogin at(Path file, Map<String, String> environment, Instant deadline) {
        URI base = ProviderLogin.endpoint(environment, BASE_OVERRIDE, BASE);
        String root = base.toString().replaceAll("/+$", "");
        return new ProviderLogin(file, new ClaudeLogin(URI.create(root + TOKEN_PATH)), deadline);
    }

    @Override
    public String provider() {
        return "claude";
    }

    @Override
    public Optional<ProviderLogin.Refresh> due(ObjectNode login, Instant until) {
        JsonNode oauth = login.path(OAUTH);
        String refreshToken = oauth.path("refreshToken").asText("");
        JsonNode expiresAt = oauth.path("expiresAt");
        if (refreshToken.isEmpty()
                || expiresAt.canConvertToLong()
                        && Instant.ofEpochMilli(expiresAt.asLong()).isAfter(until)) {
            return Optional.empty();
        }
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("grant_type", "refresh_token")
                .put("refresh_token", refreshToken)
                .put("client_id", CLIENT_ID);
        return Optional.of(new ProviderLogin.Refresh(endpoint, body));
    }

    @Override
    public Optional<ObjectNode> refreshed(ObjectNode login, JsonNode answer, Instant now) {
        JsonNode accessToken = answer.path("access_token");
        JsonNode expiresIn = answer.path("expires_in");
        if (!(login.get(OAUTH) instanceof ObjectNode oauth)
                || !accessToken.isTextual()
                || accessToken.asText().isEmpty()
                || !expiresIn.canConvertToLong()
                || expiresIn.asLong() <= 0) {
            return Optional.empty();
        }
        oauth.put("accessToken", accessToken.asText());
        oauth.put("expiresAt", now.plusSeconds(expiresIn.asLong()).toEpochMilli());
        JsonNode refreshToken = answer.path("refresh_token");
        if (refreshToken.isTextual() && !refreshToken.asText().isEmpty()) {
            oauth.put("refreshToken", refreshToken.asText());
        }
        JsonNode scope = answer.path("scope");
        if (scope.isTextual() && !scope.asText().isBlank()) {
            ArrayNode scopes = oauth.putArray("scopes");
            for (String s : scope.asText().trim().split("\\s+")) {
                scopes.add(s);
            }
        }
        return Optional.of(login);
    }

    @Override
    public ObjectNode forView(ObjectNode login) {
        ObjectNode view = login.deepCopy();
        if (view.get(OAUTH) instanceof ObjectNode oauth && oauth.has("refreshToken")) {
            oauth.put("refreshToken", "");
        }
        return view;
    }
}
