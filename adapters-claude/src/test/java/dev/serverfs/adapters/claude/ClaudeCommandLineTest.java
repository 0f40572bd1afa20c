package dev.serverfs.adapters.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.provider.ProviderSandbox;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClaudeCommandLineTest {

    @Test
    void a_workspace_write_turn_runs_stream_json_with_stdio_permissions_in_default_mode() {
        List<String> argv = ClaudeCommandLine.argv(
                "claude", TaskProfile.WORKSPACE_WRITE, Optional.empty(), Optional.of(Path.of("/run/offline")));
        assertEquals(
                List.of(
                        "claude",
                        "-p",
                        "--output-format",
                        "stream-json",
                        "--input-format",
                        "stream-json",
                        "--verbose",
                        "--permission-prompt-tool",
                        "stdio",
                        "--permission-mode",
                        "default",
                        "--setting-sources",
                        "user",
                        "--settings",
                        "{\"disableAllHooks\":true,\"autoMemoryEnabled\":false,\"permissions\":{\"ask\":[\"Bash(git:*)\"]},"
                                + "\"env\":{\"CLAUDE_CODE_SHELL_PREFIX\":\"/run/offline\"}}",
                        "--strict-mcp-config",
                        "--disallowedTools",
                        "Workflow,EnterWorktree,ExitWorktree,Agent,RemoteTrigger"),
                argv);
    }

    @Test
    void what_a_task_wrote_steers_no_later_turn_hooks_off_the_workdirs_settings_unread_fsmonitor_off() {
        List<String> unconfined =
                ClaudeCommandLine.argv("claude", TaskProfile.WORKSPACE_WRITE, Optional.empty(), Optional.empty());
        assertEquals("user", unconfined.get(unconfined.indexOf("--setting-sources") + 1));
        assertEquals(
                "{\"disableAllHooks\":true,\"autoMemoryEnabled\":false,\"permissions\":{\"ask\":[\"Bash(git:*)\"]}}",
                unconfined.get(unconfined.indexOf("--settings") + 1));
        assertTrue(unconfined.contains("--strict-mcp-config"), "no MCP server a task configured starts");
        assertFalse(unconfined.contains("--mcp-config"));
        Map<String, String> env = ClaudeCommandLine.environment(Map.of("GIT_CONFIG_COUNT", "0"));
        assertEquals("1", env.get("GIT_CONFIG_COUNT"));
        assertEquals("core.fsmonitor", env.get("GIT_CONFIG_KEY_0"));
        assertEquals("false", env.get("GIT_CONFIG_VALUE_0"));
        assertEquals("1", env.get("CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS"), "Claude runs no git status of its own");
        assertEquals("1", env.get("CLAUDE_CODE_DISABLE_CRON"), "no prompt scheduled beyond the task");
        assertEquals("1", env.get("CLAUDE_CODE_DISABLE_BUNDLED_SKILLS"), "no built-in skill runs its commands unasked");
    }

    @Test
    void
            the_subagents_skills_commands_rules_workflows_cached_policy_plugins_and_memory_of_the_configuration_are_shown_empty() {
        Path dir = Path.of("/home/op/.claude");
        ProviderSandbox.Grants grants = ClaudeCommandLine.grants(
                "claude", Map.of("HOME", "/home/op", "PATH", "/nowhere"), Map.of(), Instant.EPOCH);
        assertEquals(
                List.of(
                        ProviderSandbox.Grants.Emptied.directory(dir.resolve("agents")),
                        ProviderSandbox.Grants.Emptied.directory(dir.resolve("skills")),
                        ProviderSandbox.Grants.Emptied.directory(dir.resolve("commands")),
                        ProviderSandbox.Grants.Emptied.directory(dir.resolve("rules")),
                        ProviderSandbox.Grants.Emptied.directory(dir.resolve("workflows")),
                        ProviderSandbox.Grants.Emptied.file(dir.resolve("remote-settings.json")),
                        ProviderSandbox.Grants.Emptied.file(dir.resolve("policy-limits.json")),
                        ProviderSandbox.Grants.Emptied.directory(dir.resolve("state")),
                        ProviderSandbox.Grants.Emptied.directory(dir.resolve("plugins")),
                        ProviderSandbox.Grants.Emptied.directory(dir.resolve("output-styles")),
                        ProviderSandbox.Grants.Emptied.file(dir.resolve("CLAUDE.md")),
                        ProviderSandbox.Grants.Emptied.freshDirectory(dir.resolve("session-env")),
                        ProviderSandbox.Grants.Emptied.freshFile(dir.resolve(".config.json"), "{}"),
                        ProviderSandbox.Grants.Emptied.freshFile(Path.of("/home/op/.claude.json"), "{}")),
                grants.emptied());
        assertEquals(Map.of(), grants.files(), "no global configuration is kept between tasks");
    }

    @Test
    void with_a_configuration_directory_its_global_configuration_is_fresh_for_each_child() {
        ProviderSandbox.Grants grants = ClaudeCommandLine.grants(
                "claude",
                Map.of("HOME", "/home/op", "CLAUDE_CONFIG_DIR", "/srv/claude", "PATH", "/nowhere"),
                Map.of(),
                Instant.EPOCH);
        assertTrue(grants.emptied()
                .contains(ProviderSandbox.Grants.Emptied.freshFile(Path.of("/srv/claude/.claude.json"), "{}")));
        assertEquals(List.of(Path.of("/srv/claude")), grants.directories());
    }

    @Test
    void a_review_turn_denies_every_writing_tool_and_mcp_servers_and_a_continuation_resumes() {
        List<String> argv =
                ClaudeCommandLine.argv("/opt/claude", TaskProfile.REVIEW, Optional.of("s-1"), Optional.empty());
        int i = argv.indexOf("--disallowedTools");
        assertEquals(
                "Workflow,EnterWorktree,ExitWorktree,Agent,RemoteTrigger,Bash,Write,Edit,MultiEdit,NotebookEdit",
                argv.get(i + 1));
        assertTrue(argv.contains("--strict-mcp-config"));
        assertEquals(List.of("--resume", "s-1"), argv.subList(argv.size() - 2, argv.size()));
        assertEquals("default", argv.get(argv.indexOf("--permission-mode") + 1));
    }

    @Test
    void the_environment_is_an_allow_list_plus_the_forced_quiet_and_bounded_retry_settings() {
        Map<String, String> env = ClaudeCommandLine.environment(Map.of(
                "HOME", "/home/u",
                "ANTHROPIC_API_KEY", "k",
                "CLAUDE_CODE_OAUTH_TOKEN", "long-lived",
                "SERVERFS_AUTH_TOKEN", "secret",
                "NODE_OPTIONS", "--inspect",
                "CLAUDE_CODE_MAX_RETRIES", "10"));
        assertEquals("/home/u", env.get("HOME"));
        assertEquals("k", env.get("ANTHROPIC_API_KEY"));
        assertEquals("long-lived", env.get("CLAUDE_CODE_OAUTH_TOKEN"), "a setup-token login");
        assertFalse(env.containsKey("SERVERFS_AUTH_TOKEN"));
        assertFalse(env.containsKey("NODE_OPTIONS"));
        assertEquals(ClaudeCommandLine.MAX_RETRIES, env.get("CLAUDE_CODE_MAX_RETRIES"), "the caller cannot unbound it");
        assertEquals("1", env.get("DISABLE_AUTOUPDATER"));
    }
}
