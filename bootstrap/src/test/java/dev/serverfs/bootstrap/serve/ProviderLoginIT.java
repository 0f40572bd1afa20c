package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's provider login as a real Codex (and Claude Code) task meets it, through a real {@code serve}: a
 * ChatGPT login whose access token runs out in five minutes (before any task's deadline and margin) is refreshed by
 * ServerFS at a real token endpoint (on loopback, named by Codex's own {@code CODEX_REFRESH_TOKEN_URL_OVERRIDE})
 * before the child starts; the task's command reads the login in its view (the new access token, no refresh token)
 * and, outside Codex's own sandbox (a human approved it), tries to overwrite it, as a task that wanted to plant
 * another account's token would. The operator's file holds the refreshed login afterwards, unchanged by the task.
 */
class ProviderLoginIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MARK = "REFRESH-" + UUID.randomUUID();

    @TempDir
    Path dir;

    private HttpServer tokens;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final String refreshedAccess = jwt(Instant.now().plus(Duration.ofDays(10)), "access-2");

    @BeforeEach
    void startTokenEndpoint() throws Exception {
        tokens = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        tokens.createContext("/", exchange -> {
            requests.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] body = JSON.writeValueAsBytes(Map.of(
                    "id_token",
                    idToken(),
                    "access_token",
                    refreshedAccess,
                    "refresh_token",
                    MARK + "-2",
                    "expires_in",
                    28_800));
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        tokens.start();
    }

    @AfterEach
    void stopTokenEndpoint() {
        tokens.stop(0);
    }

    /** An unsigned JSON Web Token with these claims, as Codex decodes one (it never checks the signature). */
    private static String jwt(Instant exp, String subject) {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String claims =
                "{\"exp\":" + exp.getEpochSecond() + ",\"sub\":\"" + subject + "\",\"email\":\"op@example.org\","
                        + "\"https://api.openai.com/auth\":{\"chatgpt_plan_type\":\"plus\",\"chatgpt_account_id\":\"acc-1\"}}";
        return b64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + b64.encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + ".c2ln";
    }

    private static String idToken() {
        return jwt(Instant.now().plus(Duration.ofDays(10)), "id");
    }

    /**
     * Runs one task that reads the login and tries to replace it, approving what it asks; checks that the view showed
     * the refreshed access token without any refresh token, refused the write, and that ServerFS refreshed once with
     * the operator's refresh token. The refresh request.
     */
    private JsonNode runAndAssertRefreshedReadOnly(ProviderWorld<?> w, Supplier<String> everythingTheModelSaw)
            throws Exception {
        String id = w.submit("Look at your login");
        String answer = w.finish(id, "approve_once").get("final_response").asText();
        assertFalse(answer.contains(MARK), "no refresh token in the view:\n" + answer);
        assertFalse(everythingTheModelSaw.get().contains(MARK), "nor anything the model saw");
        assertTrue(answer.contains("LOGIN-READ-ONLY") && !answer.contains("LOGIN-WRITTEN"), answer);
        assertEquals(1, requests.size(), "ServerFS refreshed the login once: " + requests);
        JsonNode request = JSON.readTree(requests.get(0));
        assertEquals(MARK, request.path("refresh_token").asText());
        assertEquals("refresh_token", request.path("grant_type").asText());
        assertTrue(answer.contains(refreshedAccess), "the task runs with the refreshed token:\n" + answer);
        return request;
    }

    @Test
    void a_codex_task_gets_a_refreshed_read_only_login_without_its_refresh_token() throws Exception {
        Path bin = CodexCli.binary();
        Path[] login = new Path[1];
        String command = "cat @; echo; (echo '{\"OPENAI_API_KEY\":\"sk-other-account\"}' > @) 2>/dev/null"
                + " && echo LOGIN-WRITTEN || echo LOGIN-READ-ONLY";
        try (ProviderWorld<MockResponsesApi> w = CodexWorld.start(
                dir,
                bin,
                r -> r.callOutput("call_1")
                        .<MockResponsesApi.Reply>map(out -> new MockResponsesApi.Reply.Text(
                                out.path("output").asText()))
                        .orElseGet(() -> new MockResponsesApi.Reply.Call(
                                "call_1",
                                "exec_command",
                                MockResponsesApi.json("{\"cmd\":"
                                        + JsonNodeFactory.instance.textNode(command.replace("@", login[0].toString()))
                                        + ",\"sandbox_permissions\":\"require_escalated\",\"justification\":\"x\"}"))),
                Map.of(
                        "CODEX_REFRESH_TOKEN_URL_OVERRIDE",
                        "http://127.0.0.1:" + tokens.getAddress().getPort() + "/oauth/token"))) {
            login[0] = Path.of(w.vars.get("CODEX_HOME")).resolve("auth.json");
            Files.writeString(
                    login[0],
                    JSON.writeValueAsString(Map.of(
                            "OPENAI_API_KEY", "sk-mock-key",
                            "tokens",
                                    Map.of(
                                            "id_token",
                                            idToken(),
                                            "access_token",
                                            jwt(Instant.now().plus(Duration.ofMinutes(5)), "access-1"),
                                            "refresh_token",
                                            MARK,
                                            "account_id",
                                            "acc-1"),
                            "last_refresh", Instant.now().toString())));
            Files.setPosixFilePermissions(login[0], PosixFilePermissions.fromString("rw-------"));

            JsonNode request =
                    runAndAssertRefreshedReadOnly(w, () -> w.mock.requests().toString());
            assertEquals(
                    "app_EMoamEEZ73f0CkXaXp7hrann", request.path("client_id").asText());

            JsonNode operator = JSON.readTree(Files.readString(login[0]));
            assertEquals(refreshedAccess, operator.at("/tokens/access_token").asText(), "written back");
            assertEquals(MARK + "-2", operator.at("/tokens/refresh_token").asText(), "the rotated refresh token kept");
            assertEquals("sk-mock-key", operator.path("OPENAI_API_KEY").asText(), "not the task's account");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(login[0])));
        }
        PinnedCli.assertNoneLeft(bin, Duration.ofSeconds(15));
    }

    /**
     * The same for a real Claude Code task without an API key: its claude.ai login, due, is refreshed by ServerFS at
     * the token endpoint below {@code CLAUDE_CODE_CUSTOM_OAUTH_URL}; the task's approved command reads the copy (the
     * new access token, no refresh token) and cannot replace it (Claude's own way of writing it is a rename).
     */
    @Test
    void a_claude_task_gets_a_refreshed_read_only_login_without_its_refresh_token() throws Exception {
        Path bin = ClaudeCode.binary();
        Path[] login = new Path[1];
        String command = "cat @; echo; (echo '{}' > @.new && mv @.new @) 2>/dev/null"
                + " && echo LOGIN-WRITTEN || echo LOGIN-READ-ONLY";
        try (ProviderWorld<MockMessagesApi> w = ClaudeWorld.startLoggedIn(
                dir,
                bin,
                r -> r.toolResult("toolu_login")
                        .<MockMessagesApi.Reply>map(out -> new MockMessagesApi.Reply.Text(
                                out.path("content").toString()))
                        .orElseGet(() -> new MockMessagesApi.Reply.ToolUse(
                                "toolu_login",
                                "Bash",
                                MockMessagesApi.json("{\"command\":"
                                        + JsonNodeFactory.instance.textNode(command.replace("@", login[0].toString()))
                                        + ",\"description\":\"Look at the login\"}"))),
                Map.of(
                        "CLAUDE_CODE_CUSTOM_OAUTH_URL",
                        "http://127.0.0.1:" + tokens.getAddress().getPort()))) {
            login[0] = Files.createDirectories(w.home.resolve(".claude")).resolve(".credentials.json");
            Files.writeString(
                    login[0],
                    JSON.writeValueAsString(Map.of(
                            "claudeAiOauth",
                            Map.of(
                                    "accessToken",
                                    "sk-ant-oat01-access-1",
                                    "refreshToken",
                                    MARK,
                                    "expiresAt",
                                    Instant.now().plus(Duration.ofMinutes(5)).toEpochMilli(),
                                    "scopes",
                                    List.of("user:inference", "user:profile"),
                                    "subscriptionType",
                                    "max"))));
            Files.setPosixFilePermissions(login[0], PosixFilePermissions.fromString("rw-------"));

            JsonNode request =
                    runAndAssertRefreshedReadOnly(w, () -> w.mock.requests().toString());
            assertEquals(
                    "9d1c250a-e61b-44d9-88ed-5944d1962f5e",
                    request.path("client_id").asText());

            JsonNode operator = JSON.readTree(Files.readString(login[0])).path("claudeAiOauth");
            assertEquals(refreshedAccess, operator.path("accessToken").asText(), "written back");
            assertEquals(MARK + "-2", operator.path("refreshToken").asText(), "the rotated refresh token kept");
            assertEquals("max", operator.path("subscriptionType").asText());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(login[0])));
        }
        PinnedCli.assertNoneLeft(bin, Duration.ofSeconds(15));
    }
}
