package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ProviderLogin} against a real token endpoint on loopback and a real login file. */
class ProviderLoginTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");
    /** When the task the tests start a child for times out: two hours from {@link #NOW}. */
    private static final Instant DEADLINE = NOW.plus(Duration.ofHours(2));

    @TempDir
    Path dir;

    private HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private volatile int status = 200;
    private volatile String answer =
            "{\"access_token\":\"access-2\",\"refresh_token\":\"refresh-2\",\"expires_in\":28800}";
    private volatile Runnable meanwhile = () -> {};
    private Path file;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/token", this::token);
        server.start();
        file = dir.resolve("auth.json");
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void token(HttpExchange exchange) throws IOException {
        requests.add(
                exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("Content-Type") + " "
                        + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        meanwhile.run();
        byte[] body = answer.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    private ProviderLogin login(URI endpoint) {
        return login(endpoint, DEADLINE);
    }

    private ProviderLogin login(URI endpoint, Instant deadline) {
        return new ProviderLogin(file, new TestLogin(endpoint), deadline, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/token");
    }

    private void write(long expires) throws IOException {
        Files.writeString(
                file,
                "{\"access\":\"access-1\",\"refresh\":\"refresh-1\",\"expires\":" + expires + ",\"plan\":\"max\"}");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    private static JsonNode tree(byte[] bytes) throws IOException {
        return JSON.readTree(bytes);
    }

    @Test
    void tokens_due_are_refreshed_written_back_owner_only_and_shown_without_the_refresh_token() throws IOException {
        write(NOW.plusSeconds(600).getEpochSecond());
        JsonNode view = tree(login(endpoint()).forView().orElseThrow());

        assertEquals(List.of("POST application/json {\"refresh_token\":\"refresh-1\"}"), requests);
        JsonNode operator = tree(Files.readAllBytes(file));
        assertEquals("access-2", operator.path("access").asText());
        assertEquals("refresh-2", operator.path("refresh").asText(), "the rotated token is kept");
        assertEquals("max", operator.path("plan").asText(), "fields the format does not know are kept");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("access-2", view.path("access").asText());
        assertEquals("", view.path("refresh").asText(), "the view never gets the refresh token");

        login(endpoint()).forView();
        assertEquals(1, requests.size(), "refreshed tokens are not due again");
        try (var names = Files.list(dir)) {
            assertEquals(List.of(file), names.toList(), "no file left beside the login");
        }
    }

    @Test
    void tokens_not_due_are_copied_without_a_request() throws IOException {
        write(DEADLINE.plus(ProviderLogin.MARGIN).plusSeconds(60).getEpochSecond());
        byte[] before = Files.readAllBytes(file);
        JsonNode view = tree(login(endpoint()).forView().orElseThrow());
        assertEquals(List.of(), requests);
        assertEquals("access-1", view.path("access").asText());
        assertEquals("", view.path("refresh").asText());
        assertArrayEquals(before, Files.readAllBytes(file));
    }

    /** The child cannot refresh them (its copy has no refresh token): they must outlast its task, however long. */
    @Test
    void tokens_are_due_when_they_could_run_out_before_the_tasks_deadline() throws IOException {
        write(NOW.plus(Duration.ofHours(3)).getEpochSecond());
        login(endpoint(), NOW.plus(Duration.ofHours(1))).forView();
        assertEquals(List.of(), requests, "they outlast a task of an hour");

        JsonNode view =
                tree(login(endpoint(), NOW.plus(Duration.ofHours(5))).forView().orElseThrow());
        assertEquals(1, requests.size(), "a task of five hours needs them refreshed");
        assertEquals("access-2", view.path("access").asText());

        write(NOW.plusSeconds(300).getEpochSecond());
        login(endpoint(), NOW.minus(Duration.ofHours(1))).forView();
        assertEquals(2, requests.size(), "a deadline already past still leaves the child its margin");
    }

    @Test
    void a_refused_refresh_changes_nothing() throws IOException {
        write(NOW.getEpochSecond());
        byte[] before = Files.readAllBytes(file);
        status = 400;
        answer = "{\"error\":\"invalid_grant\"}";
        JsonNode view = tree(login(endpoint()).forView().orElseThrow());
        assertEquals(1, requests.size());
        assertArrayEquals(before, Files.readAllBytes(file), "the operator's login is unchanged");
        assertEquals("access-1", view.path("access").asText(), "the child starts with the tokens there are");
        assertEquals("", view.path("refresh").asText());

        status = 200;
        answer = "[\"not an answer\"]";
        login(endpoint()).forView();
        assertArrayEquals(before, Files.readAllBytes(file), "nor an answer it cannot use");
    }

    @Test
    void an_unreachable_endpoint_changes_nothing() throws IOException {
        write(NOW.getEpochSecond());
        byte[] before = Files.readAllBytes(file);
        URI closed = endpoint();
        server.stop(0);
        JsonNode view = tree(login(closed).forView().orElseThrow());
        assertArrayEquals(before, Files.readAllBytes(file));
        assertEquals("access-1", view.path("access").asText());
    }

    /** The operator's own CLI refreshed the login while this process did: its login stands, the other is dropped. */
    @Test
    void a_login_changed_meanwhile_is_not_overwritten() throws IOException {
        write(NOW.getEpochSecond());
        String theirs = "{\"access\":\"access-cli\",\"refresh\":\"refresh-cli\",\"expires\":"
                + NOW.plusSeconds(28800).getEpochSecond() + "}";
        meanwhile = () -> {
            try {
                Files.writeString(file, theirs);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        };
        JsonNode view = tree(login(endpoint()).forView().orElseThrow());
        assertEquals(theirs, Files.readString(file));
        assertEquals("access-cli", view.path("access").asText());
        assertEquals("", view.path("refresh").asText());
    }

    @Test
    void a_login_that_is_not_json_is_copied_as_it_is_and_none_gives_nothing() throws IOException {
        assertEquals(Optional.empty(), login(endpoint()).forView());
        Files.writeString(file, "not-json");
        assertArrayEquals(
                "not-json".getBytes(StandardCharsets.UTF_8),
                login(endpoint()).forView().orElseThrow());
        Files.delete(file);
        Files.createDirectory(file);
        assertEquals(Optional.empty(), login(endpoint()).forView(), "a directory is no login");
        assertTrue(requests.isEmpty());
    }

    @Test
    void the_expiry_of_a_json_web_token() {
        String payload = java.util.Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("{\"exp\":1798000000,\"sub\":\"x\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals(Optional.of(Instant.ofEpochSecond(1798000000)), ProviderLogin.expiry("h." + payload + ".s"));
        assertEquals(Optional.empty(), ProviderLogin.expiry("opaque-token"));
        assertEquals(Optional.empty(), ProviderLogin.expiry("h.!!.s"));
    }
}
