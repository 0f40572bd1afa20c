package dev.serverfs.adapters.codex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.provider.ProviderSandbox;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a Codex child is started with and what the profile sends (the documented policy, exactly). */
class CodexCommandLineTest {
    @Test
    void workspace_write_confines_writes_to_the_cwd_without_tmp_tmpdir_or_network() {
        assertEquals(
                "{\"type\":\"workspaceWrite\",\"writableRoots\":[],\"networkAccess\":false,"
                        + "\"excludeTmpdirEnvVar\":true,\"excludeSlashTmp\":true}",
                CodexCommandLine.sandboxPolicy(TaskProfile.WORKSPACE_WRITE).toString());
        assertEquals(
                "{\"type\":\"readOnly\",\"networkAccess\":false}",
                CodexCommandLine.sandboxPolicy(TaskProfile.REVIEW).toString());
        var turn = CodexCommandLine.turnParams("th", "hi", Path.of("/srv/w/sub"), TaskProfile.WORKSPACE_WRITE);
        assertEquals("/srv/w/sub", turn.path("cwd").asText());
        assertEquals("[\"/srv/w/sub\"]", turn.path("runtimeWorkspaceRoots").toString());
        assertEquals("on-request", turn.path("approvalPolicy").asText());
        assertEquals("hi", turn.path("input").get(0).path("text").asText());
        var thread = CodexCommandLine.threadParams(Path.of("/srv/w"), TaskProfile.REVIEW, Optional.of("th_1"));
        assertEquals("th_1", thread.path("threadId").asText());
        assertEquals("read-only", thread.path("sandbox").asText());
        assertEquals("[\"/srv/w\"]", thread.path("runtimeWorkspaceRoots").toString(), "not the transcript's roots");
    }

    @Test
    void the_environment_is_an_allow_list_without_tmpdir_and_the_configured_home_wins() {
        Map<String, String> env = CodexCommandLine.environment(
                Map.of(
                        "PATH", "/bin",
                        "TMPDIR", "/var/tmp",
                        "CODEX_HOME", "/home/u/.codex",
                        "SERVERFS_TOKEN", "x",
                        "OPENAI_API_KEY", "k"),
                Optional.of(Path.of("/srv/codex-home")));
        assertEquals("/srv/codex-home", env.get("CODEX_HOME"));
        assertEquals("k", env.get("OPENAI_API_KEY"));
        assertEquals("warn", env.get("RUST_LOG"));
        assertFalse(env.containsKey("TMPDIR"));
        assertFalse(env.containsKey("SERVERFS_TOKEN"));
        assertEquals(
                "/home/u/.codex",
                CodexCommandLine.environment(Map.of("CODEX_HOME", "/home/u/.codex"), Optional.empty())
                        .get("CODEX_HOME"),
                "passed through when not configured");
    }

    @Test
    void the_exec_policy_rules_skills_instructions_dotenv_and_plugins_of_codex_home_are_shown_empty() {
        Path home = Path.of("/srv/codex-home");
        assertEquals(
                java.util.List.of(
                        ProviderSandbox.Grants.Emptied.directory(home.resolve("rules")),
                        ProviderSandbox.Grants.Emptied.directory(home.resolve("skills")),
                        ProviderSandbox.Grants.Emptied.file(home.resolve("AGENTS.md")),
                        ProviderSandbox.Grants.Emptied.file(home.resolve("AGENTS.override.md")),
                        ProviderSandbox.Grants.Emptied.file(home.resolve(".env")),
                        ProviderSandbox.Grants.Emptied.directory(home.resolve("plugins")),
                        ProviderSandbox.Grants.Emptied.file(home.resolve("models_cache.json")),
                        ProviderSandbox.Grants.Emptied.file(home.resolve("cloud-config-bundle-cache.json")),
                        ProviderSandbox.Grants.Emptied.directory(home.resolve("cache")),
                        ProviderSandbox.Grants.Emptied.directory(home.resolve("remote-plugin-checkout-cache")),
                        ProviderSandbox.Grants.Emptied.directory(home.resolve(".tmp/plugins")),
                        ProviderSandbox.Grants.Emptied.freshFile(home.resolve("hooks.json"), "{}"),
                        ProviderSandbox.Grants.Emptied.freshDirectory(home.resolve("serverfs-state"))),
                CodexCommandLine.grants(
                                "codex",
                                Map.of("CODEX_HOME", home.toString(), "PATH", "/nowhere"),
                                Map.of(),
                                Instant.EPOCH)
                        .emptied());
    }

    @Test
    void memories_are_turned_off_on_the_command_line() {
        java.util.List<String> argv = CodexCommandLine.argv("codex", Optional.empty());
        assertFalse(
                java.util.Collections.indexOfSubList(argv, java.util.List.of("-c", "features.memories=false")) < 0,
                argv.toString());
    }

    @Test
    void the_state_database_is_kept_where_each_view_shows_a_fresh_directory_and_compression_stays_off() {
        java.util.List<String> argv = CodexCommandLine.argv("codex", Optional.of(Path.of("/srv/codex \"home\"")));
        assertFalse(
                java.util.Collections.indexOfSubList(
                                argv, java.util.List.of("-c", "sqlite_home=\"/srv/codex \\\"home\\\"/serverfs-state\""))
                        < 0,
                argv.toString());
        assertFalse(
                java.util.Collections.indexOfSubList(
                                argv, java.util.List.of("-c", "features.local_thread_store_compression=false"))
                        < 0,
                argv.toString());
    }

    @Test
    void the_version_is_the_last_word_of_the_version_line() {
        assertEquals("0.169.0", CodexAgentRuntime.versionOf("codex-cli 0.169.0\n"));
    }
}
