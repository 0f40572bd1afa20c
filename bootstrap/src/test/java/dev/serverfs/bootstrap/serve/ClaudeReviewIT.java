package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code review} task of runtime {@code claude} end to end (issues 13 item 3, 25): a real {@code serve} whose workdir
 * is read-only in {@code review} mode, the real CLI and the mock model, which asks for {@code Write}, then {@code
 * Bash}, then {@code Edit}. The task succeeds, no file of the workdir changes, no human is asked, and the writer lease
 * is never taken.
 */
class ClaudeReviewIT {

    @Test
    void a_review_task_succeeds_without_changing_any_file(@TempDir Path dir) throws Exception {
        Path bin = ClaudeCode.binary();
        Path work = dir.resolve("proj");
        String write = "{\"file_path\":\"" + work.resolve("new.txt") + "\",\"content\":\"written\\n\"}";
        String bash = "{\"command\":\"touch by-bash.txt; echo changed > keep.txt\",\"description\":\"Change files\"}";
        String edit = "{\"file_path\":\"" + work.resolve("keep.txt")
                + "\",\"old_string\":\"original\",\"new_string\":\"edited\"}";
        MockMessagesApi.Script script = MockMessagesApi.calls(
                "Reviewed without changes.",
                MockMessagesApi.Call.of("toolu_write", "Write", write),
                MockMessagesApi.Call.of("toolu_bash", "Bash", bash),
                MockMessagesApi.Call.of("toolu_edit", "Edit", edit));
        Files.createDirectories(work);
        Files.writeString(work.resolve("keep.txt"), "original\n");
        try (ProviderWorld<MockMessagesApi> world = ClaudeWorld.start(
                dir, bin, script, Map.of("WORKDIR_01_READ_ONLY", "true", "WORKDIR_01_AGENT_MODE", "review"))) {
            String id = world.submit("Review this project", "review");
            JsonNode task = world.awaitStatus(id, "succeeded");

            assertEquals("Reviewed without changes.", task.get("final_response").asText());
            assertEquals("review", task.get("profile").asText());
            assertFalse(
                    world.probe.eventTypes(id).stream().anyMatch(t -> t.equals("approval.requested")),
                    "a review task never asks a human to allow a change");
            try (Stream<Path> files = Files.list(work)) {
                assertEquals(List.of(work.resolve("keep.txt")), files.toList(), "no file created");
            }
            assertEquals("original\n", Files.readString(work.resolve("keep.txt")), "no file changed");
            for (String tool : List.of("toolu_write", "toolu_bash", "toolu_edit")) {
                assertTrue(
                        world.mock
                                .requests()
                                .getLast()
                                .toolResult(tool)
                                .orElseThrow()
                                .path("is_error")
                                .asBoolean(),
                        tool + " was refused");
            }
            assertFalse(
                    world.mock.requests().getFirst().toolNames().contains("Bash"), "the write tools are not offered");
        }
        PinnedCli.assertNoneLeft(bin, Duration.ofSeconds(15));
    }
}
