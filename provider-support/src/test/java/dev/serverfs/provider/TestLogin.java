package dev.serverfs.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.time.Instant;
import java.util.Optional;

/**
 * A provider login format for the tests of this module: {@code {"access": ..., "refresh": ..., "expires": epoch
 * seconds}}, due when {@code expires} comes before the horizon, refreshed at {@code endpoint} with {@code
 * {"refresh_token": ...}}, whose answer's {@code access_token}, {@code refresh_token} and {@code expires_in} it takes.
 */
record TestLogin(URI endpoint) implements ProviderLogin.Format {
    /** Never reached: for logins that are not due. */
    static final TestLogin FORMAT = new TestLogin(URI.create("http://127.0.0.1:9/token"));

    @Override
    public String provider() {
        return "test";
    }

    @Override
    public Optional<ProviderLogin.Refresh> due(ObjectNode login, Instant until) {
        if (login.path("refresh").asText("").isEmpty()
                || Instant.ofEpochSecond(login.path("expires").asLong()).isAfter(until)) {
            return Optional.empty();
        }
        ObjectNode body =
                login.objectNode().put("refresh_token", login.path("refresh").asText());
        return Optional.of(new ProviderLogin.Refresh(endpoint, body));
    }

    @Override
    public Optional<ObjectNode> refreshed(ObjectNode login, JsonNode answer, Instant now) {
        if (!answer.path("access_token").isTextual()) {
            return Optional.empty();
        }
        login.put("access", answer.path("access_token").asText())
                .put(
                        "refresh",
                        answer.path("refresh_token")
                                .asText(login.path("refresh").asText()))
                .put("expires", now.getEpochSecond() + answer.path("expires_in").asLong());
        return Optional.of(login);
    }

    @Override
    public ObjectNode forView(ObjectNode login) {
        return login.deepCopy().put("refresh", "");
    }
}
