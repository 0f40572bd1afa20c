package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.bootstrap.serve.MockResponsesApi.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
 * (issue 25).
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
            System.err.println("DEBUG-OUT " + world.mock.requests().get(1).callOutput("call_1"));
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
}
