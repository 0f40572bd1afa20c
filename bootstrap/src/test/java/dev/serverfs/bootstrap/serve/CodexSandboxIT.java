package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.serverfs.bootstrap.serve.MockResponsesApi.Reply;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The profile policy of the {@code codex} runtime against the real Codex sandbox (issue 12 "Policy"; PROVIDERS.md
 * "Sandbox caveat"): a {@code workspace-write} task cannot create a file in {@code /tmp}, which Codex's own
 * {@code workspace-write} leaves writable, and a {@code review} turn cannot create any file, with or without asking
 * for escalation (a review task never asks), run end to end as a {@code review} task in a {@code review} workdir
 * (issue 25); a task does not read what a task of another workdir saw in Codex's sessions; a command a human
 * approved for escalation runs outside Codex's sandbox but inside the view, whose only network is the egress relay:
 * it cannot reach a loopback server that stands in for ServerFS' own {@code /mcp}.
 */
class CodexSandboxIT {
    private static Path bin;

    @TempDir
    Path dir;

    private ProviderWorld<MockResponsesApi> world;

    @BeforeAll
    static void install() throws Exception {
        bin = CodexCli.binary();
    }

    @AfterEach
    void no_codex_process_is_left() throws Exception {
        try {
            if (world != null) {
                world.close();
            }
        } finally {
            PinnedCli.assertNoneLeft(bin, Duration.ofSeconds(15));
        }
    }

    /** {@code first} without escalation, then {@code second} asking for it, then a text. */
    private static MockResponsesApi.Script twoCommands(String first, String second) {
        return r -> {
            if (r.callOutput("call_1").isEmpty()) {
                return new Reply.Call("call_1", "exec_command", MockResponsesApi.json("{\"cmd\":\"" + first + "\"}"));
            }
            if (r.callOutput("call_2").isEmpty()) {
                return new Reply.Call(
                        "call_2",
                        "exec_command",
                        MockResponsesApi.json("{\"cmd\":\"" + second
                                + "\",\"sandbox_permissions\":\"require_escalated\",\"justification\":\"Please\"}"));
            }
            return new Reply.Text("Done trying.");
        };
    }

    @Test
    void a_workspace_write_task_cannot_create_a_file_in_tmp_but_can_in_its_workdir() throws Exception {
        Path outside = Path.of("/tmp", "serverfs-codex-escape-" + UUID.randomUUID());
        try {
            world = CodexWorld.start(
                    dir, bin, twoCommands("touch inside.txt && touch " + outside, "touch " + outside), Map.of());
            String id = world.submit("Write where you may");
            JsonNode task = world.finish(id, "deny");
            assertEquals("Done trying.", task.get("final_response").asText());
            assertFalse(Files.exists(outside), "the sandbox kept /tmp read-only");
            assertTrue(Files.exists(world.proj.resolve("inside.txt")), "the workdir is writable");
            String first = world.mock
                    .requests()
                    .get(1)
                    .callOutput("call_1")
                    .orElseThrow()
                    .toString();
            assertFalse(first.contains("Process exited with code 0"), first);
        } finally {
            Files.deleteIfExists(outside);
        }
    }

    /** Prints DIRECT-OPEN or DIRECT-CLOSED, then PROXY-OPEN or PROXY-CLOSED: can it reach 127.0.0.1:argv[1]? */
    private static final String REACH = """
            import socket, sys, urllib.request
            port = int(sys.argv[1])
            try:
                socket.create_connection(("127.0.0.1", port), 3).close(); d = "DIRECT-OPEN"
            except Exception:
                d = "DIRECT-CLOSED"
            try:
                urllib.request.urlopen("http://127.0.0.1:%d/mcp" % port, timeout=5).read(); p = "PROXY-OPEN"
            except Exception:
                p = "PROXY-CLOSED"
            print(d, p)
            """;

    /**
     * The view's network is the egress relay alone: an approved escalated command (outside Codex's sandbox, inside
     * the view) reaches neither a loopback HTTP server that stands in for ServerFS' {@code /mcp} nor, through the
     * relay, anything it does not admit; the turn itself still reaches its allow-listed mock model.
     */
    @Test
    void an_escalated_command_reaches_no_loopback_server_while_the_turn_reaches_its_model() throws Exception {
        HttpServer standIn = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        AtomicInteger hits = new AtomicInteger();
        standIn.createContext("/", exchange -> {
            hits.incrementAndGet();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        standIn.start();
        try {
            int port = standIn.getAddress().getPort();
            world = CodexWorld.start(dir, bin, twoCommands("true", "python3 reach.py " + port), Map.of());
            Files.writeString(world.proj.resolve("reach.py"), REACH);
            String id = world.submit("Reach out");
            JsonNode task = world.finish(id, "approve_once");
            assertEquals("Done trying.", task.get("final_response").asText(), "the turn reached its model");
            String out = world.mock.requests().stream()
                    .flatMap(r -> r.callOutput("call_2").stream())
                    .findFirst()
                    .orElseThrow()
                    .toString();
            assertTrue(out.contains("DIRECT-CLOSED PROXY-CLOSED"), out);
            assertEquals(0, hits.get(), "the stand-in for /mcp was reached");
        } finally {
            standIn.stop(0);
        }
    }

    @Test
    void a_review_task_in_a_review_workdir_cannot_create_any_file_and_never_asks() throws Exception {
        Path work = Files.createDirectories(dir.resolve("proj"));
        Files.writeString(work.resolve("keep.txt"), "original\n");
        world = CodexWorld.start(
                dir,
                bin,
                twoCommands("touch review.txt; echo changed > keep.txt", "touch review2.txt"),
                Map.of("WORKDIR_01_READ_ONLY", "true", "WORKDIR_01_AGENT_MODE", "review"));
        String id = world.submit("Review this project", "review");
        JsonNode task = world.awaitStatus(id, "succeeded");
        assertEquals("Done trying.", task.get("final_response").asText());
        assertFalse(
                world.probe.eventTypes(id).contains("approval.requested"),
                "a review task never asks a human to allow a change");
        try (Stream<Path> files = Files.list(work)) {
            assertEquals(List.of(work.resolve("keep.txt")), files.toList(), "no file created");
        }
        assertEquals("original\n", Files.readString(work.resolve("keep.txt")), "no file changed");
        assertEquals(3, world.mock.requests().size(), "both commands were tried and refused");
    }

    /**
     * Codex records every session in {@code CODEX_HOME/sessions} (and prompts in {@code history.jsonl}): a task of
     * {@code proj} looks there for what a task of {@code other} read. Each workdir now has its own {@code CODEX_HOME}.
     */
    @Test
    void a_task_does_not_read_what_a_task_in_another_workdir_saw() throws Exception {
        String mark = "SECRET-" + UUID.randomUUID();
        Path other = Files.createDirectories(dir.resolve("other"));
        Files.writeString(other.resolve("secret.txt"), mark + "\n");
        String look = "grep -rhoaE 'SECRET-[0-9a-f-]+' $CODEX_HOME | head -1; echo looked";
        world = CodexWorld.start(
                dir,
                bin,
                r -> r.callOutput("call_1").isPresent()
                        ? new Reply.Text("Done.")
                        : new Reply.Call(
                                "call_1",
                                "exec_command",
                                MockResponsesApi.json("{\"cmd\":\""
                                        + (r.lastUserText().contains("read") ? "cat secret.txt" : look) + "\"}")),
                Map.of(
                        "WORKDIR_02_ALIAS", "other",
                        "WORKDIR_02_PATH", other.toString(),
                        "WORKDIR_02_READ_ONLY", "false",
                        "WORKDIR_02_AGENT_MODE", "workspace-write",
                        "WORKDIR_02_AGENT_RUNTIMES", "codex"));
        world.finish(
                AgentServeIT.created(world.mcp.call(
                        "submit_agent_task", AgentServeIT.submit("other", "codex", "read it", "workspace-write"))),
                "deny");
        assertTrue(world.mock.requests().stream().anyMatch(r -> r.text().contains(mark)), "the first task read it");
        world.finish(world.submit("look around"), "deny");
        String seen = world.mock
                .requests()
                .getLast()
                .callOutput("call_1")
                .orElseThrow()
                .toString();
        assertTrue(seen.contains("looked"), seen);
        assertFalse(seen.contains(mark), "another workdir's content reached this task: " + seen);
    }

    /**
     * Codex loads a trusted project's {@code .codex/config.toml} (MCP servers, hooks, notify) and starts what it
     * names itself, on the host's network. A task of another runtime (or a human-approved command) can write it.
     */
    @Test
    void a_task_starts_nothing_the_workdirs_codex_config_names() throws Exception {
        world = CodexWorld.start(dir, bin, r -> new Reply.Text("Done."), Map.of());
        int port = java.net.URI.create(world.mock.baseUrl()).getPort();
        Files.writeString(world.proj.resolve("probe.py"), ClaudeConfigurationEscapeIT.PROBE);
        Files.createDirectories(world.proj.resolve(".codex"));
        String probe = "[\"" + world.proj.resolve("probe.py") + "\", \"%s\", \"" + port + "\"]";
        Files.writeString(world.proj.resolve(".codex/config.toml"), """
                notify = ["/usr/bin/python3", %s]

                [mcp_servers.planted]
                command = "/usr/bin/python3"
                args = %s
                """.formatted(
                probe.formatted("notify").substring(1, probe.formatted("notify").length() - 1),
                probe.formatted("mcp")));
        world.finish(world.submit("hello"), "deny");
        assertFalse(Files.exists(world.proj.resolve("mcp.txt")), "a planted MCP server was started");
        assertFalse(Files.exists(world.proj.resolve("notify.txt")), "a planted notify program was run");
    }
}
