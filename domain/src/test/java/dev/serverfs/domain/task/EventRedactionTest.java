package dev.serverfs.domain.task;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.serverfs.domain.json.CanonicalJson;
import dev.serverfs.domain.json.JsonValue;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventRedactionTest {
    private static final String ROOT = "/srv/projects/docs";

    @Test
    void native_ids_are_dropped_and_paths_become_workdir_relative() {
        JsonValue.JsonObject payload = JsonValue.object()
                .put("thread_id", "t1")
                .put("turn_id", "u1")
                .put("native_session_id", "s")
                .put("cwd", ROOT)
                .put("path", ROOT + "/src/A.java")
                .put("file_path", "/etc/passwd")
                .put("relative_cwd", "src")
                .put("writableRoots", JsonValue.stringsOf(List.of(ROOT, ROOT + "/out", "/tmp")))
                .put("nested", JsonValue.object().put("grantRoot", ROOT + "/x").build())
                .build();
        assertEquals(
                "{\"cwd\":\".\",\"file_path\":\"<outside-workdir>\",\"nested\":{\"grantRoot\":\"x\"},"
                        + "\"path\":\"src/A.java\",\"relative_cwd\":\"src\","
                        + "\"writableRoots\":[\".\",\"out\",\"<outside-workdir>\"]}",
                CanonicalJson.write(EventRedaction.redact(payload, ROOT, List.of())));
    }

    @Test
    void free_text_hides_the_root_and_sibling_prefixes() {
        JsonValue.JsonObject payload = JsonValue.object()
                .put("text", "edited " + ROOT + "/a.txt and " + ROOT + "-old/b.txt in " + ROOT)
                .build();
        assertEquals(
                "{\"text\":\"edited <workdir>/a.txt and <outside-workdir> in <workdir>\"}",
                CanonicalJson.write(EventRedaction.redact(payload, ROOT, List.of())));
    }

    @Test
    void claude_blocked_and_notebook_paths_become_workdir_relative() {
        JsonValue.JsonObject payload = JsonValue.object()
                .put("blocked_path", ROOT + "/x")
                .put(
                        "tool_input",
                        JsonValue.object()
                                .put("notebook_path", "/home/u/n.ipynb")
                                .build())
                .build();
        assertEquals(
                "{\"blocked_path\":\"x\",\"tool_input\":{\"notebook_path\":\"<outside-workdir>\"}}",
                CanonicalJson.write(EventRedaction.redact(payload, ROOT, List.of())));
    }

    // Probe T: the view's /proc/self/mountinfo names the serving user's home and ServerFS' state directory.
    private static final String HOME = "/home/alice";
    private static final String IN_HOME = HOME + "/proj";
    private static final List<String> HIDDEN =
            List.of(HOME, "/var/lib/serverfs", "/run/serverfs-locks", "/srv/projects/other", IN_HOME);

    private static String text(String s) {
        return EventRedaction.redactText(s, IN_HOME, HIDDEN);
    }

    @Test
    void a_mountinfo_line_names_no_hidden_directory() {
        assertEquals(
                "174 139 254:0 <outside-workdir> <outside-workdir> ro,nosuid - ext4 /dev/vda rw\n"
                        + "169 167 254:0 <workdir> <workdir> rw,nosuid - ext4 /dev/vda rw\n"
                        + "168 167 0:47 / <outside-workdir> ro,nosuid - tmpfs tmpfs rw",
                text("174 139 254:0 /var/lib/serverfs/provider-homes/4158bd/codex-home " + HOME + "/.codex"
                        + " ro,nosuid - ext4 /dev/vda rw\n"
                        + "169 167 254:0 " + IN_HOME + " " + IN_HOME + " rw,nosuid - ext4 /dev/vda rw\n"
                        + "168 167 0:47 / " + HOME + " ro,nosuid - tmpfs tmpfs rw"));
    }

    @Test
    void the_workdir_inside_the_home_stays_the_workdir_and_the_rest_of_the_home_is_outside() {
        assertEquals(
                "cat <workdir>/a.txt <workdir> <outside-workdir> <outside-workdir> <outside-workdir>",
                text("cat " + IN_HOME + "/a.txt " + IN_HOME + " " + HOME + "/.codex/auth.json " + HOME + " " + IN_HOME
                        + "-old/b"));
    }

    @Test
    void a_hidden_token_ends_at_a_quote_a_colon_or_closing_punctuation() {
        assertEquals(
                "\"<outside-workdir>\": no; '<outside-workdir>':3: bad; (<outside-workdir>), [<outside-workdir>]",
                text("\"/var/lib/serverfs/tasks.db\": no; '" + HOME + "/.codex/config.toml':3: bad; ("
                        + "/run/serverfs-locks/slot-1), [" + HOME + "]"));
    }

    @Test
    void a_name_extending_a_hidden_directory_is_outside_too_and_an_unrelated_path_is_kept() {
        // conservative: /home/alice2 is not the home, but shown it would name the home; so would an escaped newline
        assertEquals(
                "<outside-workdir> and <outside-workdir>: /home/bob/x /var/lib/other /etc/passwd <outside-workdir>",
                text(HOME + "2/notes.txt and /srv/projects/other-old/x: /home/bob/x /var/lib/other /etc/passwd " + HOME
                        + "\\nnext"));
    }

    @Test
    void root_a_trailing_slash_and_relative_names_are_never_hidden_prefixes() {
        assertEquals(
                "/etc/passwd <outside-workdir> relative/x <workdir>",
                EventRedaction.redactText(
                        "/etc/passwd /srv/other/x relative/x " + ROOT,
                        ROOT,
                        List.of("/", "", "relative", "/srv/other/", ROOT)));
    }

    @Test
    void another_workdir_nested_in_the_root_is_outside_and_so_is_a_name_extending_it() {
        assertEquals(
                "<workdir>/a <outside-workdir> <outside-workdir>",
                EventRedaction.redactText(
                        ROOT + "/a " + ROOT + "/nested/b " + ROOT + "/nested-not", ROOT, List.of(ROOT + "/nested")));
    }

    @Test
    void hidden_directories_are_redacted_in_every_string_of_a_payload() {
        JsonValue.JsonObject payload = JsonValue.object()
                .put("cwd", IN_HOME + "/src")
                .put("command", "cat " + HOME + "/.codex/config.toml")
                .put("output", JsonValue.stringsOf(List.of("/var/lib/serverfs/x", "ok")))
                .build();
        assertEquals(
                "{\"command\":\"cat <outside-workdir>\",\"cwd\":\"src\","
                        + "\"output\":[\"<outside-workdir>\",\"ok\"]}",
                CanonicalJson.write(EventRedaction.redact(payload, IN_HOME, HIDDEN)));
    }
}
