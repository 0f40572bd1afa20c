package dev.serverfs.adapters.codex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a continuation takes out of the transcripts of a workdir's Codex threads before Codex resumes one (probes R, S). */
class CodexRolloutTest {
    private static final String META = "{\"type\":\"session_meta\",\"payload\":{\"id\":\"t1\",\"cwd\":\"/w\","
            + "\"base_instructions\":{\"text\":\"planted\"},\"dynamic_tools\":[{\"name\":\"x\"}],"
            + "\"selected_capability_roots\":[{\"id\":\"c\",\"location\":{\"type\":\"environment\",\"path\":\"/p\"}}]}}";
    private static final String SETTINGS = "{\"type\":\"event_msg\",\"payload\":{\"type\":\"thread_settings_applied\","
            + "\"thread_settings\":{\"model\":\"m\",\"collaboration_mode\":{\"mode\":\"default\","
            + "\"settings\":{\"model\":\"m\",\"developer_instructions\":\"planted\"}}}}}";
    private static final String TURN = "{\"type\":\"turn_context\",\"payload\":{\"cwd\":\"/w\",\"collaboration_mode\":"
            + "{\"mode\":\"default\",\"settings\":{\"model\":\"m\",\"developer_instructions\":\"planted\"}}}}";
    private static final String MESSAGE = "{\"type\":\"response_item\",\"payload\":{\"type\":\"message\","
            + "\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"session_meta turn_context\"}]}}";

    @Test
    void base_instructions_dynamic_tools_capability_roots_and_mode_instructions_are_taken_out_and_nothing_else() {
        assertEquals(
                "{\"type\":\"session_meta\",\"payload\":{\"id\":\"t1\",\"cwd\":\"/w\"}}",
                CodexRollout.withoutSessionState(META));
        assertEquals(SETTINGS.replace("\"planted\"", "null"), CodexRollout.withoutSessionState(SETTINGS));
        assertEquals(TURN.replace("\"planted\"", "null"), CodexRollout.withoutSessionState(TURN));
        assertSame(MESSAGE, CodexRollout.withoutSessionState(MESSAGE), "the conversation is left as it is");
        String clean = CodexRollout.withoutSessionState(SETTINGS);
        assertSame(clean, CodexRollout.withoutSessionState(clean), "nothing to take out: unchanged");
        assertSame("{not json session_meta", CodexRollout.withoutSessionState("{not json session_meta"));
    }

    @Test
    void every_regular_transcript_a_sub_agent_s_too_is_rewritten_and_no_link_is_followed(@TempDir Path dir)
            throws Exception {
        Path day = Files.createDirectories(dir.resolve("home/sessions/2026/12/04"));
        Path own = day.resolve("rollout-2026-12-04T04-00-00-t1.jsonl");
        Files.writeString(own, META + "\n" + MESSAGE + "\n");
        Path subAgent = Files.writeString(
                Files.createDirectories(dir.resolve("home/sessions/2026/12/05"))
                        .resolve("rollout-2026-12-05T04-00-00-t2.jsonl"),
                META + "\n");
        Path other = Files.writeString(day.resolve("notes-t1.jsonl"), META + "\n");
        Path outside = Files.writeString(dir.resolve("outside.jsonl"), META + "\n");
        Files.createSymbolicLink(day.resolve("rollout-2026-12-04T05-00-00-t1.jsonl"), outside);

        CodexRollout.forgetSessionState(dir.resolve("home"), Optional.empty());

        String rewritten = Files.readString(own);
        assertFalse(rewritten.contains("planted"), rewritten);
        assertTrue(rewritten.endsWith(MESSAGE + "\n"), rewritten);
        assertFalse(Files.readString(subAgent).contains("planted"), "another thread's transcript (a sub-agent's)");
        assertEquals(META + "\n", Files.readString(other), "not a transcript");
        assertEquals(META + "\n", Files.readString(outside), "a link is not followed");
        try (var files = Files.list(day)) {
            assertEquals(3, files.count(), "no copy is left behind");
        }
    }

    @Test
    void a_home_without_sessions_is_left_alone(@TempDir Path dir) {
        CodexRollout.forgetSessionState(dir.resolve("missing"), Optional.empty());
    }
}
