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
                CanonicalJson.write(EventRedaction.redact(payload, ROOT)));
    }

    @Test
    void free_text_hides_the_root_and_sibling_prefixes() {
        JsonValue.JsonObject payload = JsonValue.object()
                .put("text", "edited " + ROOT + "/a.txt and " + ROOT + "-old/b.txt in " + ROOT)
                .build();
        assertEquals(
                "{\"text\":\"edited <workdir>/a.txt and <outside-workdir> in <workdir>\"}",
                CanonicalJson.write(EventRedaction.redact(payload, ROOT)));
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
                CanonicalJson.write(EventRedaction.redact(payload, ROOT)));
    }
}
