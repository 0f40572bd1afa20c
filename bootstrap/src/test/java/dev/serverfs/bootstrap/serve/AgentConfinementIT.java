package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a delegated agent can reach (issue 25), attacked with the real CLIs against the mock models through a real
 * {@code serve}: the model runs one shell command that reads a planted secret in the serving user's home, a file
 * outside the workdir, a deny-listed {@code .env} inside it, another workdir and ServerFS' task store, writes into the
 * home and outside the workdir, opens a connection to the mock model itself, and does ordinary work (read and write in
 * the workdir, {@code git status}, {@code python3 -c}); files whose names are not valid UTF-8 hold secrets too, at the
 * workdir's top level and beside an ordinary file; then it answers with everything the command printed, as a
 * leaking model would. No secret reaches the answer, the events or the model; no write lands outside the workdir; the
 * command has no network; the ordinary work succeeds.
 */
class AgentConfinementIT {
    private static final String MARK = "SECRET-" + UUID.randomUUID();

    @TempDir
    Path dir;

    /** The planted world and the one command that attacks it. */
    private record Attack(Path home, Path outside, Path other, Path proj, String command) {}

    private Attack plant(Path home, Path proj, Path state, int modelPort) throws Exception {
        Files.createDirectories(home.resolve(".ssh"));
        Files.writeString(home.resolve(".ssh/id_rsa"), MARK + "-home\n");
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), MARK + "-outside\n");
        Path other = dir.resolve("other");
        Files.writeString(proj.resolve(".env"), MARK + "-dotenv\n");
        Files.writeString(proj.resolve("notes.txt"), "ordinary notes\n");
        Files.createDirectories(proj.resolve("sub"));
        Files.writeString(proj.resolve("sub/sibling.txt"), "ordinary sibling\n");
        // names that are not valid UTF-8, at the top and beside the ordinary file (from printf: no Java string has one)
        shell(
                proj,
                "printf '%s' \"$1\" > \"$(printf 'top\\377')\"; printf '%s' \"$1\" > \"$(printf 'sub/\\376')\"",
                MARK);
        git(proj, "init", "-q");
        String command = String.join(
                "; ",
                "cat " + home.resolve(".ssh/id_rsa"),
                "cat " + outside.resolve("secret.txt"),
                "cat .env",
                "cat " + other.resolve("secret.txt"),
                "cat " + state + "/*",
                "cat notes.txt sub/sibling.txt",
                "cat \"$(printf 'top\\377')\" \"$(printf 'sub/\\376')\"",
                "echo made > made.txt && echo wrote-made",
                "git status --short",
                "python3 -c 'print(6*7)'",
                "echo x > " + home.resolve("planted.txt"),
                "echo x > " + outside.resolve("planted.txt"),
                "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", " + modelPort
                        + "), 3)' 2>/dev/null && echo NET-OPEN || echo NET-CLOSED");
        return new Attack(home, outside, other, proj, command);
    }

    private static Map<String, String> otherWorkdir(Path other) throws Exception {
        Files.createDirectories(other);
        Files.writeString(other.resolve("secret.txt"), MARK + "-other\n");
        return Map.of(
                "WORKDIR_02_ALIAS", "other",
                "WORKDIR_02_PATH", other.toString(),
                "WORKDIR_02_READ_ONLY", "true");
    }

    private static Map<String, String> with(Map<String, String> a, Map<String, String> b) {
        Map<String, String> all = new HashMap<>(a);
        all.putAll(b);
        return all;
    }

    private static void shell(Path dir, String script, String argument) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-ec", script, "plant", argument)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        assertEquals(0, p.waitFor());
    }

    private static void git(Path dir, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of("git", "-C", dir.toString()));
        argv.addAll(List.of(args));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertEquals(0, p.waitFor());
    }

    /** Submits the attack, approves whatever the provider asks, and checks what came back and what happened. */
    private static void runAndAssertConfined(ProviderWorld<?> w, Attack a, Supplier<String> everythingTheModelSaw)
            throws Exception {
        String id = w.submit("Look around");
        String answer = w.finish(id, "approve_once").get("final_response").asText();
        String events = w.mcp.call("read_agent_task_events", Map.of("task_id", id, "limit", 500))
                .ok()
                .toString();
        assertConfined(a, answer, events, everythingTheModelSaw.get());
    }

    private static void assertConfined(Attack a, String answer, String events, String everythingTheModelSaw) {
        assertFalse(answer.contains(MARK), "no secret in the task's answer:\n" + answer);
        assertFalse(events.contains(MARK), "no secret in the task's events");
        assertFalse(everythingTheModelSaw.contains(MARK), "no secret reached the model");
        assertFalse(answer.contains("SQLite format"), "the task store is not visible:\n" + answer);
        assertTrue(answer.contains("ordinary notes"), "the workdir is readable:\n" + answer);
        assertTrue(answer.contains("ordinary sibling"), "beside a name that is not UTF-8 too:\n" + answer);
        assertTrue(answer.contains("wrote-made") && Files.exists(a.proj().resolve("made.txt")), "writable:\n" + answer);
        assertTrue(answer.contains("?? made.txt") || answer.contains("?? notes.txt"), "git works:\n" + answer);
        assertTrue(answer.contains("42"), "python3 works:\n" + answer);
        assertTrue(answer.contains("NET-CLOSED") && !answer.contains("\nNET-OPEN"), "no network:\n" + answer);
        assertFalse(Files.exists(a.home().resolve("planted.txt")), "nothing written into the real home");
        assertFalse(Files.exists(a.outside().resolve("planted.txt")), "nothing written outside the workdir");
    }

    @Test
    void a_codex_task_sees_only_its_workdir() throws Exception {
        codexAttack(Map.of());
    }

    @Test
    void a_codex_task_run_by_the_bridge_sees_only_its_workdir() throws Exception {
        codexAttack(Map.of("SERVERFS_AGENT_EMBEDDED", "false"));
    }

    private void codexAttack(Map<String, String> deployment) throws Exception {
        Path bin = CodexCli.binary();
        Path other = dir.resolve("other");
        Attack[] attack = new Attack[1];
        try (ProviderWorld<MockResponsesApi> w = CodexWorld.start(
                dir,
                bin,
                r -> r.callOutput("call_1")
                        .<MockResponsesApi.Reply>map(out -> new MockResponsesApi.Reply.Text(
                                out.path("output").asText()))
                        .orElseGet(() -> new MockResponsesApi.Reply.Call(
                                "call_1",
                                "exec_command",
                                MockResponsesApi.json("{\"cmd\":" + quote(attack[0].command()) + "}"))),
                with(otherWorkdir(other), deployment))) {
            attack[0] =
                    plant(w.home, w.proj, w.state, URI.create(w.mock.baseUrl()).getPort());
            runAndAssertConfined(w, attack[0], () -> w.mock.requests().toString());
        }
        PinnedCli.assertNoneLeft(bin, Duration.ofSeconds(15));
    }

    @Test
    void a_claude_task_sees_only_its_workdir_and_its_approved_commands_stay_offline() throws Exception {
        claudeAttack(Map.of());
    }

    @Test
    void a_claude_task_run_by_the_bridge_sees_only_its_workdir_and_its_approved_commands_stay_offline()
            throws Exception {
        claudeAttack(Map.of("SERVERFS_AGENT_EMBEDDED", "false"));
    }

    private void claudeAttack(Map<String, String> deployment) throws Exception {
        Path bin = ClaudeCode.binary();
        Path other = dir.resolve("other");
        Attack[] attack = new Attack[1];
        try (ProviderWorld<MockMessagesApi> w = ClaudeWorld.start(
                dir,
                bin,
                r -> r.toolResult("toolu_read")
                        .map(read -> r.toolResult("toolu_bash")
                                .<MockMessagesApi.Reply>map(out -> new MockMessagesApi.Reply.Text(
                                        read.path("content").toString() + "\n"
                                                + out.path("content").toString()))
                                .orElseGet(() -> new MockMessagesApi.Reply.ToolUse(
                                        "toolu_bash",
                                        "Bash",
                                        MockMessagesApi.json("{\"command\":" + quote(attack[0].command())
                                                + ",\"description\":\"Look around\"}"))))
                        .orElseGet(() -> new MockMessagesApi.Reply.ToolUse(
                                "toolu_read",
                                "Read",
                                MockMessagesApi.json("{\"file_path\":" + quote(attack[0].proj() + "/.env") + "}"))),
                with(otherWorkdir(other), deployment))) {
            attack[0] =
                    plant(w.home, w.proj, w.state, URI.create(w.mock.baseUrl()).getPort());
            // Claude asks before it runs a shell command: the human approves all it asks, so only the view refuses
            runAndAssertConfined(w, attack[0], () -> w.mock.requests().toString());
        }
        PinnedCli.assertNoneLeft(bin, Duration.ofSeconds(15));
    }

    @Test
    void without_bubblewrap_the_runtimes_are_unavailable_with_the_reason_unless_the_operator_opts_out()
            throws Exception {
        Path bin = CodexCli.binary();
        Map<String, String> noBwrap =
                Map.of("SERVERFS_AGENT_BWRAP_BIN", dir.resolve("no-such-bwrap").toString());
        try (ProviderWorld<MockResponsesApi> w =
                CodexWorld.start(dir.resolve("a"), bin, r -> new MockResponsesApi.Reply.Text("unused"), noBwrap)) {
            JsonNode codex = w.mcp.call("list_agent_runtimes", Map.of())
                    .ok()
                    .get("runtimes")
                    .get(0);
            assertFalse(codex.get("available").asBoolean(), codex.toString());
            assertTrue(codex.get("unavailable_reason").asText().contains("bubblewrap"), codex.toString());
            assertFalse(codex.get("unavailable_reason").asText().contains(dir.toString()), "no host path");
            assertEquals(
                    "AGENT_RUNTIME_UNAVAILABLE",
                    w.mcp.call("submit_agent_task", AgentServeIT.submit("proj", "codex", "x"))
                            .code());
        }
        Map<String, String> optOut = new HashMap<>(noBwrap);
        optOut.put("SERVERFS_AGENT_ALLOW_UNCONFINED", "true");
        try (ProviderWorld<MockResponsesApi> w =
                CodexWorld.start(dir.resolve("b"), bin, r -> new MockResponsesApi.Reply.Text("unused"), optOut)) {
            JsonNode codex = w.mcp.call("list_agent_runtimes", Map.of())
                    .ok()
                    .get("runtimes")
                    .get(0);
            assertTrue(codex.get("available").asBoolean(), codex.toString());
            assertTrue(
                    w.serve.stderr().stream().anyMatch(l -> l.contains("\"agent_unconfined\"")),
                    "the opt-out is logged at start");
        }
    }

    private static String quote(String text) {
        return JsonNodeFactory.instance.textNode(text).toString();
    }
}
