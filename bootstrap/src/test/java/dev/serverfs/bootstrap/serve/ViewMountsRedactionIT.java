package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Probe T: the view's {@code /proc/self/mountinfo} names the host directories its mounts come from (the serving
 * user's home, the state directory with the workdir's provider home). A task that reads it (Codex runs {@code cat}
 * without asking) and answers with what it read must not hand those paths to the client, nor another workdir's root:
 * the final response, the events and the command output name them {@code <outside-workdir>}. Failed before the
 * redaction knew more than the task's own workdir root.
 */
class ViewMountsRedactionIT {
    private static final Duration STOP_BOUND = Duration.ofSeconds(15);

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
            PinnedCli.assertNoneLeft(bin, STOP_BOUND);
        }
    }

    /** Embedded in {@code serve}, and in the split deployment's {@code serverfs bridge}. */
    @ParameterizedTest
    @ValueSource(strings = {"true", "false"})
    void what_a_task_reads_of_its_mounts_names_no_host_directory_of_serverfs(String embedded) throws Exception {
        Path other = Files.createDirectories(dir.resolve("other"));
        world = CodexWorld.start(
                dir,
                bin,
                CodexServeIT.command("cat /proc/self/mountinfo", false),
                Map.of(
                        "WORKDIR_02_ALIAS",
                        "other",
                        "WORKDIR_02_PATH",
                        other.toString(),
                        "WORKDIR_02_READ_ONLY",
                        "true",
                        "SERVERFS_AGENT_EMBEDDED",
                        embedded));
        String id = world.submit("Show me your mounts");
        JsonNode task = world.finish(id, "approve_once");
        String response = task.get("final_response").asText();
        String events = world.mcp
                .call("read_agent_task_events", Map.of("task_id", id, "limit", 500))
                .ok()
                .toString();
        assertTrue(response.contains(" /proc "), "the command's output came back (the view's /proc mount)");
        assertTrue(response.contains("<workdir>"), "the task's workdir is shown as <workdir>");

        Map<String, Path> hidden = new LinkedHashMap<>();
        hidden.put("the serving user's home", world.home);
        hidden.put("the state directory", world.state);
        hidden.put("the workdir's provider home", world.state.resolve("provider-homes"));
        hidden.put("the lock directory", world.locks);
        hidden.put("another workdir", other);
        hidden.put("the operator's CODEX_HOME", Path.of(world.vars.get("CODEX_HOME")));
        assertAll(hidden.entrySet().stream().<Executable>mapMulti((e, out) -> {
            String path = e.getValue().toString();
            out.accept(() -> assertFalse(response.contains(path), e.getKey() + " appears in the final response"));
            out.accept(() -> assertFalse(events.contains(path), e.getKey() + " appears in the task's events"));
        }));
    }
}
