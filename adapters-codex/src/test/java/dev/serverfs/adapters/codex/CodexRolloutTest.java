package dev.serverfs.adapters.codex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a continuation takes out of the transcripts of a workdir's Codex threads before Codex resumes one (probes R, S, U). */
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
        assertFalse(
                Files.exists(day.resolve("rollout-2026-12-04T05-00-00-t1.jsonl"), LinkOption.NOFOLLOW_LINKS),
                "but removed");
        try (var files = Files.list(day)) {
            assertEquals(2, files.count(), "no copy is left behind");
        }
    }

    /** Probe U: Codex finds a thread's transcript by its name at any depth, archived, and compressed. */
    @Test
    void a_transcript_anywhere_beneath_sessions_or_archived_sessions_is_rewritten_and_a_compressed_one_removed(
            @TempDir Path dir) throws Exception {
        Path home = dir.resolve("home");
        Path deeper = Files.writeString(
                Files.createDirectories(home.resolve("sessions/forged")).resolve("rollout-x-t3.jsonl"), META + "\n");
        Path archived = Files.writeString(
                Files.createDirectories(home.resolve("archived_sessions")).resolve("rollout-x-t4.jsonl"), META + "\n");
        Path compressed = Files.writeString(home.resolve("sessions/rollout-x-t5.jsonl.zst"), "zstd");
        Files.createDirectories(home.resolve("sessions/a/b/c/d/e/f/g/h"));

        CodexRollout.forgetSessionState(home, Optional.empty());

        assertFalse(Files.readString(deeper).contains("planted"), "deeper");
        assertFalse(Files.readString(archived).contains("planted"), "archived");
        assertFalse(Files.exists(compressed), "a compressed transcript cannot be rewritten: removed");

        Files.createDirectories(home.resolve("sessions/a/b/c/d/e/f/g/h/i"));
        assertEquals(
                ErrorCode.AGENT_PROVIDER_ERROR,
                assertThrows(ServerFsException.class, () -> CodexRollout.forgetSessionState(home, Optional.empty()))
                        .code(),
                "a directory deeper than transcripts are looked for fails a new task");
        assertEquals(
                ErrorCode.AGENT_SESSION_NOT_RESUMABLE,
                assertThrows(ServerFsException.class, () -> CodexRollout.forgetSessionState(home, Optional.of("t1")))
                        .code(),
                "and a continuation");
    }

    @Test
    void sessions_that_is_a_link_is_removed_and_what_it_names_left_alone(@TempDir Path dir) throws Exception {
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere/2026/12/04"));
        Path forged = Files.writeString(elsewhere.resolve("rollout-x-t6.jsonl"), META + "\n");
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.createSymbolicLink(home.resolve("sessions"), dir.resolve("elsewhere"));

        CodexRollout.forgetSessionState(home, Optional.empty());

        assertFalse(Files.exists(home.resolve("sessions"), LinkOption.NOFOLLOW_LINKS));
        assertEquals(META + "\n", Files.readString(forged));
    }

    @Test
    void a_home_without_sessions_is_left_alone(@TempDir Path dir) {
        CodexRollout.forgetSessionState(dir.resolve("missing"), Optional.empty());
    }
}
