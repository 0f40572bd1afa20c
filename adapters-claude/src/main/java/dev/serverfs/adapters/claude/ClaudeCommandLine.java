package dev.serverfs.adapters.claude;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.provider.ProviderCommand;
import dev.serverfs.provider.ProviderSandbox;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The argv and environment of one Claude Code turn (PROVIDERS.md Part 2 (a)). Pure: the same inputs give the same
 * command. The prompt never appears here: it travels on stdin as a stream-json {@code user} line.
 */
final class ClaudeCommandLine {

    /**
     * The tools a {@code review} turn never gets: every built-in tool that writes a file or runs a program. Passed as
     * {@code --disallowedTools}, which is a deny rule and so wins over any allow rule in the user's or the project's
     * Claude settings. MCP tools could do anything too, but no turn has one ({@link #argv}).
     */
    static final List<String> REVIEW_DENIED_TOOLS = List.of("Bash", "Write", "Edit", "MultiEdit", "NotebookEdit");

    /**
     * The tools no turn gets. {@code Workflow} runs a script (inline, at a path, or saved in a {@code workflows/}
     * directory, the workdir's {@code .claude/workflows/} among them) that starts subagents in the background, which
     * edit files without asking and outlive the turn: one approval would stand for edits nobody saw, by processes the
     * task's lifecycle does not hold. {@code EnterWorktree} has Claude itself check a git worktree out, unasked, which
     * runs the hooks ({@code .git/hooks/post-checkout}) any task can write; {@code ExitWorktree} goes with it. {@code
     * Agent} does the same, unasked, for a subagent with {@code isolation: "worktree"} (a probing session saw the
     * hook run), and a subagent started in the background keeps acting after the turn's result until the child is
     * stopped. {@code RemoteTrigger}, which Claude offers once an organisation's policy verdict is at hand, creates and
     * runs scheduled remote agents on claude.ai with the login's token: work that outlives the task, outside every
     * approval ServerFS asks for.
     */
    static final List<String> DENIED_TOOLS =
            List.of("Workflow", "EnterWorktree", "ExitWorktree", "Agent", "RemoteTrigger");

    /**
     * The caller's variables a Claude child may see besides {@link ProviderCommand#COMMON_ENVIRONMENT}: its temporary
     * directory, its configuration directory and its credentials (a long-lived {@code claude setup-token} login too)
     * and endpoint.
     */
    static final List<String> INHERITED = List.of(
            "TMPDIR",
            "CLAUDE_CONFIG_DIR",
            "ANTHROPIC_API_KEY",
            "ANTHROPIC_AUTH_TOKEN",
            "ANTHROPIC_BASE_URL",
            "ANTHROPIC_MODEL",
            "CLAUDE_CODE_OAUTH_TOKEN");

    /**
     * Set on every child whatever the caller's environment says. {@code CLAUDE_CODE_MAX_RETRIES} bounds the CLI's
     * own API retries (10 with exponential backoff by default, PROVIDERS.md (b)), so a dead endpoint fails the turn
     * in seconds instead of holding the task to its deadline; the others keep a headless child from phoning home or
     * updating itself.
     */
    static final Map<String, String> FORCED = forced();

    /**
     * The ask rule every turn has: Claude runs the commands it deems read-only without asking, {@code git diff},
     * {@code git log -p} and {@code git status} among them, and git runs what the workdir's {@code .git/config} and
     * {@code .gitattributes} name ({@code diff.external}, a textconv, a clean filter), which an earlier approved
     * command could have written. An ask rule wins over Claude's own judgement and over the user's allow rules.
     */
    static final String ASK_GIT = "Bash(git:*)";

    /** The bounded number of API retries the child makes on its own. */
    static final String MAX_RETRIES = "2";

    private ClaudeCommandLine() {}

    private static Map<String, String> forced() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CLAUDE_CODE_MAX_RETRIES", MAX_RETRIES);
        // Claude runs git itself, with the provider's network (the egress relay): a core.fsmonitor a task wrote into
        // .git/config would run there (seen by a probing session). Configuration from the environment wins over the
        // repository's.
        env.put("GIT_CONFIG_COUNT", "1");
        env.put("GIT_CONFIG_KEY_0", "core.fsmonitor");
        env.put("GIT_CONFIG_VALUE_0", "false");
        // ...and a clean filter (filter.<name>.clean, any name) ran in the git status Claude runs for its prompt at
        // every turn's start, before any tool and without approval: Claude runs no git of its own then (nor puts
        // its git instructions in the prompt); git runs only in the commands a human approves, offline.
        env.put("CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS", "1");
        // No scheduled prompts (CronCreate): a task is one objective within its deadline, and a durable job lands in
        // the workdir's .claude/scheduled_tasks.json, which a later task's Claude would read.
        env.put("CLAUDE_CODE_DISABLE_CRON", "1");
        // No built-in skills: they run without asking, and their text carries shell commands Claude runs as it loads
        // them, allowed by the skill's own allowed-tools (security-review: git status, git log, git diff, which run
        // what the workdir's .git/config names).
        env.put("CLAUDE_CODE_DISABLE_BUNDLED_SKILLS", "1");
        env.put("DISABLE_TELEMETRY", "1");
        env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        env.put("DISABLE_AUTOUPDATER", "1");
        env.put("DISABLE_ERROR_REPORTING", "1");
        env.put("BUN_ENABLE_CRASH_REPORTING", "0");
        return Map.copyOf(env);
    }

    /**
     * The argv of one turn. Both profiles run permission mode {@code default}, so everything Claude does not
     * auto-allow asks through {@code can_use_tool} on stdio; no turn has the {@link #DENIED_TOOLS}; {@code review}
     * also denies every writing tool (see {@link #REVIEW_DENIED_TOOLS}), and the runtime refuses whatever else asks in
     * a review turn.
     *
     * <p>What a task can write must not steer a later task's Claude process, which has network (the egress relay's):
     * the workdir's own settings ({@code .claude/settings.json}, {@code .claude/settings.local.json}) are not loaded
     * ({@code --setting-sources user}), and the command-line settings, which win over the user's (the operator's,
     * bound read-only), turn every hook and the auto-memory off and pin {@code CLAUDE_CODE_SHELL_PREFIX} to {@code
     * offlineShell} when there is one. A probing session planted an {@code env} that emptied the prefix, and an
     * exec-form hook that ran with network, without approval, in a later review task. No turn starts an MCP server
     * ({@code --strict-mcp-config} and none given): Claude starts a server itself, with its network and without
     * approval, and a task can configure one in the workdir's {@code ~/.claude.json} or {@code .mcp.json}.
     */
    static List<String> argv(
            String bin, TaskProfile profile, Optional<String> resumeSessionId, Optional<Path> offlineShell) {
        List<String> argv = new ArrayList<>(List.of(
                bin,
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
                settings(offlineShell),
                "--strict-mcp-config"));
        List<String> denied = new ArrayList<>(DENIED_TOOLS);
        if (profile == TaskProfile.REVIEW) {
            denied.addAll(REVIEW_DENIED_TOOLS);
        }
        argv.add("--disallowedTools");
        argv.add(String.join(",", denied));
        resumeSessionId.ifPresent(id -> {
            argv.add("--resume");
            argv.add(id);
        });
        return List.copyOf(argv);
    }

    /**
     * The command-line settings: no hook runs, no auto-memory is read or written, every {@code git} command asks
     * ({@link #ASK_GIT}), and the shell prefix is the offline shell's. The auto-memory ({@code
     * projects/<cwd>/memory/MEMORY.md} of the configuration directory, which holds the transcripts and stays writable)
     * reaches a later task's model as instructions (probe G).
     */
    static String settings(Optional<Path> offlineShell) {
        ObjectNode settings = JsonNodeFactory.instance.objectNode();
        settings.put("disableAllHooks", true);
        settings.put("autoMemoryEnabled", false);
        settings.putObject("permissions").putArray("ask").add(ASK_GIT);
        offlineShell.ifPresent(shell -> settings.putObject("env").put("CLAUDE_CODE_SHELL_PREFIX", shell.toString()));
        return settings.toString();
    }

    /**
     * What a Claude child needs in its view (issue 25): its configuration directory ({@code CLAUDE_CONFIG_DIR}, else
     * {@code ~/.claude}), the workdir's own, so its transcripts and history stay with the workdir, and its global
     * configuration ({@code ~/.claude.json}) fresh for each child ({@link #emptied}); a read-only copy of the
     * operator's login ({@code .credentials.json}, {@link ClaudeLogin}, refreshed at the endpoint the {@code
     * server}'s environment names, in time for the task's {@code deadline}) and user settings ({@code settings.json})
     * read-only inside it; its installation read-only; and the offline shell as {@code CLAUDE_CODE_SHELL_PREFIX}:
     * Claude runs every shell command through it, so commands have no network even once a human approved them.
     */
    static ProviderSandbox.Grants grants(
            String bin, Map<String, String> environment, Map<String, String> server, Instant deadline) {
        Optional<Path> home =
                Optional.ofNullable(environment.get("HOME")).map(Path::of).filter(Path::isAbsolute);
        Optional<Path> configDir = Optional.ofNullable(environment.get("CLAUDE_CONFIG_DIR"))
                .map(Path::of)
                .filter(Path::isAbsolute)
                .or(() -> home.map(h -> h.resolve(".claude")));
        Optional<Path> globalConfig = environment.get("CLAUDE_CONFIG_DIR") == null
                ? home.map(h -> h.resolve(".claude.json"))
                : configDir.map(d -> d.resolve(".claude.json"));
        return new ProviderSandbox.Grants(
                configDir.stream().toList(),
                Map.of(),
                configDir.map(d -> ClaudeLogin.at(d.resolve(".credentials.json"), server, deadline)),
                configDir.map(d -> Map.of(d.resolve("settings.json"), "{}")).orElse(Map.of()),
                ProviderSandbox.installation(bin, environment).stream().toList(),
                Optional.of("CLAUDE_CODE_SHELL_PREFIX"),
                List.of(),
                configDir.map(d -> emptied(d, globalConfig)).orElse(List.of()));
    }

    /**
     * What of the configuration directory the view shows empty and read-only: what Claude (2.1.197, 2.1.332) reads
     * there and acts on at a later task's start, which any approved command could have written (probes G and H). A
     * subagent ({@code agents/}) may declare {@code permissionMode: bypassPermissions}, and its commands then run
     * without asking; a skill or a command ({@code skills/}, {@code commands/}) may declare {@code allowed-tools}, so
     * one approval of the skill allows every command of the turn; {@code remote-settings.json}, the cache of an
     * organisation's remote managed settings, is read as policy settings (above every other source) whenever the
     * account is eligible (the default endpoint with an API key, a Team or Enterprise login), so an allow rule there
     * runs commands without asking; {@code state/}, where 2.1.332 keeps another such cache ({@code
     * hybrid-settings.json}), read as policy settings with an API key and no sign-in too (a deny rule there took a tool
     * from every later task, probe K); {@code policy-limits.json}, the cache of an organisation's policy limits (which
     * features it allows), read with a claude.ai login at the default endpoint and used unsigned whenever Claude
     * cannot fetch the limits (a restriction there took {@code WebSearch} from a later task, probe P2); {@code
     * plugins/}, where a plugin's files, its marketplace's registration and its installation record all are, so every
     * plugin the operator's settings enable ({@code enabledPlugins}) is a name a task can fill with skills and commands
     * of its own, {@code allowed-tools} included (probe N); {@code CLAUDE.md},
     * {@code rules/} and the saved workflows ({@code workflows/*.js}, whose descriptions are listed to the model) are
     * instructions the operator never gave, and so is {@code output-styles/}: a style named {@code default} there
     * replaces the built-in one that every turn uses when no settings choose a style, and its text became a later
     * task's system prompt (probe P). The workdir's own {@code .claude} is not read for any of them ({@code
     * --setting-sources user}).
     *
     * <p>Fresh for each child, because Claude writes them itself: the global configuration ({@code globalConfig},
     * {@code ~/.claude.json}, or {@code .claude.json} in {@code CLAUDE_CONFIG_DIR}; and {@code .config.json} in the
     * configuration directory, which Claude reads instead whenever it exists), whose {@code env} Claude applies to its
     * own environment at start, so a {@code CLAUDE_CODE_SHELL}, {@code CLAUDE_ENV_FILE} or {@code BASH_ENV} planted
     * there ran with a later task's commands, also those Claude runs without asking ({@code ls}); and {@code
     * session-env/}, whose scripts Claude runs before every command of a resumed session.
     */
    static List<ProviderSandbox.Grants.Emptied> emptied(Path configDir, Optional<Path> globalConfig) {
        List<ProviderSandbox.Grants.Emptied> emptied = new ArrayList<>(List.of(
                ProviderSandbox.Grants.Emptied.directory(configDir.resolve("agents")),
                ProviderSandbox.Grants.Emptied.directory(configDir.resolve("skills")),
                ProviderSandbox.Grants.Emptied.directory(configDir.resolve("commands")),
                ProviderSandbox.Grants.Emptied.directory(configDir.resolve("rules")),
                ProviderSandbox.Grants.Emptied.directory(configDir.resolve("workflows")),
                ProviderSandbox.Grants.Emptied.file(configDir.resolve("remote-settings.json")),
                ProviderSandbox.Grants.Emptied.file(configDir.resolve("policy-limits.json")),
                ProviderSandbox.Grants.Emptied.directory(configDir.resolve("state")),
                ProviderSandbox.Grants.Emptied.directory(configDir.resolve("plugins")),
                ProviderSandbox.Grants.Emptied.directory(configDir.resolve("output-styles")),
                ProviderSandbox.Grants.Emptied.file(configDir.resolve("CLAUDE.md")),
                ProviderSandbox.Grants.Emptied.freshDirectory(configDir.resolve("session-env")),
                ProviderSandbox.Grants.Emptied.freshFile(configDir.resolve(".config.json"), "{}")));
        globalConfig.ifPresent(g -> emptied.add(ProviderSandbox.Grants.Emptied.freshFile(g, "{}")));
        return List.copyOf(emptied);
    }

    /** The child's whole environment: the allow-listed part of {@code caller}, then {@link #FORCED}. */
    static Map<String, String> environment(Map<String, String> caller) {
        Map<String, String> env = ProviderCommand.inheritWithCommon(caller, INHERITED);
        env.putAll(FORCED);
        return env;
    }
}
