package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.adapters.claude.ClaudeAgentRuntime;
import dev.serverfs.adapters.claude.ClaudeSettings;
import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.application.port.out.TurnRequest;
import dev.serverfs.application.testing.RecordingRunContext;
import dev.serverfs.bootstrap.serve.MockMessagesApi.Reply;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code review} profile of runtime {@code claude} (issue 13 item 3) against the real CLI and the mock model: the
 * model asks for {@code Write}, then {@code Bash}, then {@code Edit}; no file of the workdir changes and no human is
 * asked. Run through the runtime itself, because the task authorization of this build accepts {@code claude} only
 * with {@code workspace-write} (reference §3.2); the callbacks only record what the runtime reports.
 */
class ClaudeReviewIT {

    @Test
    void a_review_turn_cannot_change_any_file_in_the_workdir(@TempDir Path dir) throws Exception {
        Path bin = ClaudeCode.binary();
        Path home = Files.createDirectories(dir.resolve("home"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(work.resolve("keep.txt"), "original\n");
        String write = "{\"file_path\":\"" + work.resolve("new.txt") + "\",\"content\":\"written\\n\"}";
        String bash = "{\"command\":\"touch by-bash.txt; echo changed > keep.txt\",\"description\":\"Change files\"}";
        String edit = "{\"file_path\":\"" + work.resolve("keep.txt")
                + "\",\"old_string\":\"original\",\"new_string\":\"edited\"}";
        MockMessagesApi.Script script = r -> {
            if (r.toolResult("toolu_write").isEmpty()) {
                return new Reply.ToolUse("toolu_write", "Write", MockMessagesApi.json(write));
            }
            if (r.toolResult("toolu_bash").isEmpty()) {
                return new Reply.ToolUse("toolu_bash", "Bash", MockMessagesApi.json(bash));
            }
            if (r.toolResult("toolu_edit").isEmpty()) {
                return new Reply.ToolUse("toolu_edit", "Edit", MockMessagesApi.json(edit));
            }
            return new Reply.Text("Reviewed without changes.");
        };
        try (MockMessagesApi mock = MockMessagesApi.start(script)) {
            Map<String, String> env = new HashMap<>(System.getenv());
            env.put("HOME", home.toString());
            env.put("ANTHROPIC_BASE_URL", mock.baseUrl());
            env.put("ANTHROPIC_API_KEY", "sk-ant-mock-key");
            ClaudeAgentRuntime runtime =
                    new ClaudeAgentRuntime(new ClaudeSettings(bin.toString(), Duration.ofSeconds(5), env));
            RecordingRunContext context = new RecordingRunContext();
            TaskId id = new TaskId("agt_" + "1".repeat(24));
            TurnOutcome outcome = runtime.runTurn(
                    new TurnRequest(
                            id,
                            "Review this project",
                            work,
                            TaskProfile.REVIEW,
                            Optional.empty(),
                            Instant.now().plusSeconds(600)),
                    context);

            assertEquals("Reviewed without changes.", outcome.finalResponse());
            assertEquals(List.of(), context.asked, "a review turn never asks a human to allow a change");
            try (Stream<Path> files = Files.list(work)) {
                assertEquals(List.of(work.resolve("keep.txt")), files.toList(), "no file created");
            }
            assertEquals("original\n", Files.readString(work.resolve("keep.txt")), "no file changed");
            for (String tool : List.of("toolu_write", "toolu_bash", "toolu_edit")) {
                assertTrue(
                        mock.requests()
                                .getLast()
                                .toolResult(tool)
                                .orElseThrow()
                                .path("is_error")
                                .asBoolean(),
                        tool + " was refused");
            }
            assertFalse(mock.requests().getFirst().toolNames().contains("Bash"), "the write tools are not offered");
            assertTrue(context.childGone(), "pid and start time recorded; the child is gone when the turn returns");
        }
    }
}
