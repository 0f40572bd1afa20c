package dev.serverfs.adapters.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClaudeTranscriptTest {
    private static final String SESSION = "23a4f40d-74fa-4cd5-842e-d2e31e310cff";
    private static final String USER = "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n";
    private static final String ASSISTANT = "{\"type\":\"assistant\",\"message\":{\"content\":[]}}\n";
    private static final String OWN_STATE = "{\"type\":\"cost-state\",\"sessionId\":\"" + SESSION + "\"}\n";
    private static final String WORKTREE =
            "{\"type\":\"worktree-state\",\"worktreeSession\":{\"worktreePath\":\"/x\"}}\n";
    private static final String MODE = "{\"type\":\"mode\",\"mode\":\"coordinator\"}\n";

    @TempDir
    Path home;

    private Path transcript(String slug, String content) throws Exception {
        Path dir = Files.createDirectories(home.resolve("projects").resolve(slug));
        return Files.writeString(dir.resolve(SESSION + ".jsonl"), content);
    }

    @Test
    void keeps_claudes_own_lines_and_removes_every_other() throws Exception {
        Path t = transcript(
                "-tmp-proj",
                USER + WORKTREE + ASSISTANT + MODE + "{\"type\":\"agent-setting\"}\n" + OWN_STATE + "not json\n"
                        + "[1]\n" + "{\"type\":\"user\"");
        ClaudeTranscript.clean(home, SESSION);
        assertEquals(USER + ASSISTANT + OWN_STATE, Files.readString(t));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(t)));
        try (var left = Files.list(t.getParent())) {
            assertEquals(List.of(t), left.toList(), "no temporary file is left");
        }
    }

    @Test
    void a_transcript_of_claudes_own_lines_is_not_rewritten() throws Exception {
        Path t = transcript("-tmp-proj", USER + ASSISTANT + OWN_STATE);
        Object before = Files.getAttribute(t, "unix:ino");
        ClaudeTranscript.clean(home, SESSION);
        assertEquals(USER + ASSISTANT + OWN_STATE, Files.readString(t));
        assertEquals(before, Files.getAttribute(t, "unix:ino"));
    }

    @Test
    void the_file_is_replaced_not_written_in_place() throws Exception {
        Path t = transcript("-tmp-proj", USER + WORKTREE);
        Path link = Files.createLink(home.resolve("other-name"), t);
        ClaudeTranscript.clean(home, SESSION);
        assertEquals(USER, Files.readString(t));
        assertEquals(USER + WORKTREE, Files.readString(link), "another name of the old file is not written");
    }

    @Test
    void every_project_directory_is_cleaned() throws Exception {
        Path a = transcript("-tmp-a", USER + MODE);
        Path b = transcript("-tmp-b", WORKTREE + USER);
        ClaudeTranscript.clean(home, SESSION);
        assertEquals(USER, Files.readString(a));
        assertEquals(USER, Files.readString(b));
    }

    @Test
    void a_symlinked_transcript_is_left_alone() throws Exception {
        Path outside = Files.writeString(home.resolve("outside.jsonl"), USER + WORKTREE);
        Path dir = Files.createDirectories(home.resolve("projects/-tmp-proj"));
        Path t = Files.createSymbolicLink(dir.resolve(SESSION + ".jsonl"), outside);
        ClaudeTranscript.clean(home, SESSION);
        assertTrue(Files.isSymbolicLink(t));
        assertEquals(USER + WORKTREE, Files.readString(outside));
    }

    @Test
    void a_symlinked_project_directory_is_left_alone() throws Exception {
        Path outside = Files.createDirectories(home.resolve("outside"));
        Path file = Files.writeString(outside.resolve(SESSION + ".jsonl"), USER + WORKTREE);
        Files.createDirectories(home.resolve("projects"));
        Files.createSymbolicLink(home.resolve("projects/-tmp-proj"), outside);
        ClaudeTranscript.clean(home, SESSION);
        assertEquals(USER + WORKTREE, Files.readString(file));
        try (var left = Files.list(outside)) {
            assertEquals(1, left.count(), "nothing was created there");
        }
    }

    @Test
    void a_symlinked_projects_directory_is_left_alone() throws Exception {
        Path outside = Files.createDirectories(home.resolve("outside/-tmp-proj"));
        Path file = Files.writeString(outside.resolve(SESSION + ".jsonl"), USER + WORKTREE);
        Files.createSymbolicLink(home.resolve("projects"), outside.getParent());
        ClaudeTranscript.clean(home, SESSION);
        assertEquals(USER + WORKTREE, Files.readString(file));
    }

    @Test
    void a_transcript_that_is_not_a_file_or_missing_is_left_alone() throws Exception {
        Path dir = Files.createDirectories(home.resolve("projects/-tmp-proj/" + SESSION + ".jsonl"));
        ClaudeTranscript.clean(home, SESSION);
        assertTrue(Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS));
        ClaudeTranscript.clean(home.resolve("missing"), SESSION);
    }

    @Test
    void a_session_id_that_is_not_a_uuid_names_no_file() throws Exception {
        Path t = Files.writeString(home.resolve("x.jsonl"), USER + WORKTREE);
        Files.createDirectories(home.resolve("projects/p"));
        ClaudeTranscript.clean(home, "../../x");
        assertEquals(USER + WORKTREE, Files.readString(t));
    }

    @Test
    void kept_is_by_type() {
        assertTrue(ClaudeTranscript.kept(USER.strip()));
        assertFalse(ClaudeTranscript.kept(WORKTREE));
        assertFalse(ClaudeTranscript.kept(MODE));
        assertFalse(ClaudeTranscript.kept("{\"type\":1}"));
        assertTrue(ClaudeTranscript.kept("{\"type\":\"attachment\",\"attachment\":{\"type\":\"date\"}}"));
        assertFalse(ClaudeTranscript.kept("{\"type\":\"attachment\",\"attachment\":{\"type\":\"prompt_snapshot\"}}"));
        assertFalse(ClaudeTranscript.kept("\n"));
    }
}
