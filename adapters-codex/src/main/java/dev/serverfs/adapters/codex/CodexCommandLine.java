package dev.serverfs.adapters.codex;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.provider.ProviderCommand;
import dev.serverfs.provider.ProviderSandbox;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The argv, environment and policy of one Codex turn (PROVIDERS.md Part 1 (a), (c)). Pure: the same inputs give the
 * same command. The prompt never appears here: it travels on stdin in {@code turn/start}.
 *
 * <p><b>Policy, and why it differs from the reference.</b> The reference adapter (§7.1) talks to the user's own
 * Codex daemon and sends no sandbox, approval or config override, so the user's Codex policy decides. Here ServerFS
 * starts the child itself, and the task's profile decides, on {@code thread/start} / {@code thread/resume} and again
 * on {@code turn/start}: approval policy {@code on-request} (whatever the sandbox does not allow is asked through
 * ServerFS); {@code review} → sandbox {@code read-only}, object form {@code {type: readOnly, networkAccess: false}};
 * {@code workspace-write} → {@code {type: workspaceWrite, writableRoots: [], networkAccess: false,
 * excludeTmpdirEnvVar: true, excludeSlashTmp: true}}: writable is the task's cwd only, not {@code /tmp} and not
 * {@code $TMPDIR}, which Codex's own {@code workspace-write} default leaves writable (PROVIDERS.md "Sandbox caveat"),
 * and no network. A user's {@code config.toml} cannot widen it: per-thread and per-turn values win over the file.
 */
final class CodexCommandLine {
    static final String APPROVAL_POLICY = "on-request";

    /**
     * The caller's variables a Codex child may see besides {@link ProviderCommand#COMMON_ENVIRONMENT}: its home, its
     * credentials and endpoint, and the CA variables. {@code TMPDIR} is left out on purpose (see the policy above);
     * {@code CODEX_HOME} comes from {@link CodexSettings#codexHome} when that is set.
     */
    static final List<String> INHERITED = List.of(
            "CODEX_HOME", "OPENAI_API_KEY", "CODEX_API_KEY", "OPENAI_BASE_URL", "SSL_CERT_FILE", "SSL_CERT_DIR");

    /** {@code RUST_LOG=warn}: stderr carries tracing logs only, which are drained and dropped. */
    static final Map<String, String> FORCED = Map.of("RUST_LOG", "warn");

    /** Where in {@code CODEX_HOME} Codex keeps its state database ({@code sqlite_home}): fresh in each view. */
    static final String STATE = "serverfs-state";

    private CodexCommandLine() {}

    /**
     * {@code codex app-server} on stdio. {@code request_user_input} is enabled outside Plan mode so Codex can ask
     * questions (PROVIDERS.md (c)); the sandbox and approval policy travel in the requests, not here. Memories are off
     * whatever the operator's {@code config.toml} says: with them on, {@code memories/memory_summary.md} of the
     * workdir's {@code CODEX_HOME}, which a task can write, went into every later task's instructions (probe O), and a
     * background agent of Codex's rewrites it from the workdir's transcripts with the model, as Claude's auto-memory
     * would (turned off too). Codex's state database is kept in {@link #STATE} of {@code codexHome}, fresh in each view
     * ({@link #emptied}), not beside the transcripts: a thread's {@code rollout_path} there names the transcript a
     * resume reads, and a task that moved a rewritten transcript out of {@code sessions/} (or into {@code
     * archived_sessions/}) and pointed the row at it had its session state restored in a later task (probe U); Codex
     * fills a new database from the transcripts themselves. Rollout compression stays off (Codex 0.171's default),
     * so every {@code rollout-*.jsonl.zst} there was written by someone else ({@link CodexRollout}). {@code codexHome}
     * is the {@code CODEX_HOME} a view shows, empty for an unconfined child, which keeps the operator's database.
     */
    static List<String> argv(String bin, Optional<Path> codexHome) {
        List<String> argv = new ArrayList<>(List.of(
                bin,
                "app-server",
                "-c",
                "features.default_mode_request_user_input=true",
                "-c",
                "features.memories=false",
                "-c",
                "features.local_thread_store_compression=false"));
        // a TOML string (JSON's escapes are TOML's); the command line wins over config.toml's sqlite_home
        codexHome.ifPresent(home -> argv.addAll(List.of(
                "-c",
                "sqlite_home="
                        + JsonNodeFactory.instance.textNode(home.resolve(STATE).toString()))));
        return List.copyOf(argv);
    }

    /** The child's whole environment: the allow-listed part of {@code caller}, the configured home, then FORCED. */
    static Map<String, String> environment(Map<String, String> caller, Optional<Path> codexHome) {
        Map<String, String> env = ProviderCommand.inheritWithCommon(caller, INHERITED);
        codexHome.ifPresent(home -> env.put("CODEX_HOME", home.toString()));
        env.putAll(FORCED);
        return env;
    }

    /**
     * What a Codex child needs in its view (issue 25): its {@code CODEX_HOME} (the child's, else {@code ~/.codex}), the
     * workdir's own, so its sessions and history stay with the workdir; a read-only copy of the operator's login
     * ({@code auth.json}, {@link CodexLogin}, refreshed at the endpoint the {@code server}'s environment names) and
     * {@code config.toml} read-only inside it; its installation read-only. Its commands stay offline
     * through Codex's own sandbox ({@code networkAccess: false} below), which runs nested inside the view. The
     * workdir's {@code .codex} directories (a trusted project's configuration, hooks and rules, read from the task's
     * directory up to the project root) are concealed: a task can write them, and Codex starts what they name.
     */
    static ProviderSandbox.Grants grants(
            String bin, Map<String, String> environment, Map<String, String> server, Instant deadline) {
        Optional<Path> codexHome = codexHome(environment);
        return new ProviderSandbox.Grants(
                codexHome.stream().toList(),
                Map.of(),
                codexHome.map(h -> CodexLogin.at(h.resolve("auth.json"), server, deadline)),
                codexHome.map(h -> Map.of(h.resolve("config.toml"), "")).orElse(Map.of()),
                ProviderSandbox.installation(bin, environment).stream().toList(),
                Optional.empty(),
                List.of(".codex"),
                codexHome.map(CodexCommandLine::emptied).orElse(List.of()));
    }

    /** The child's {@code CODEX_HOME}: its variable, else {@code ~/.codex}; absolute only. */
    static Optional<Path> codexHome(Map<String, String> environment) {
        return Optional.ofNullable(environment.get("CODEX_HOME"))
                .or(() -> Optional.ofNullable(environment.get("HOME")).map(home -> home + "/.codex"))
                .map(Path::of)
                .filter(Path::isAbsolute);
    }

    /**
     * What of {@code CODEX_HOME} the view shows empty and read-only: what Codex 0.171 reads there and acts on at a
     * later task's start, which an approved escalated command could have written (probe G). An exec-policy rule
     * ({@code rules/}, {@code prefix_rule(..., decision="allow")}) runs a matching command outside Codex's sandbox
     * without asking, an escalation too; {@code AGENTS.md}, {@code AGENTS.override.md} and {@code skills/} are
     * instructions the operator never gave. ServerFS never offers the exec-policy amendments Codex would write there.
     * {@code .env} is loaded into Codex's own environment at start (every variable not already set and not named
     * {@code CODEX_*}), which every command inherits: a {@code BASH_ENV} planted there ran a script with a later task's
     * commands, the escalated ones a human approved outside the sandbox too (probe H). Codex never writes it.
     * {@code plugins/} holds the files of every plugin the operator's {@code config.toml} enables ({@code
     * plugins/cache/<marketplace>/<name>/<version>/}): planted under an enabled name, a plugin's MCP server started at a
     * later task's start, outside Codex's sandbox and without asking, and its skills reached the model (probe O). The
     * operator's own plugins are never in the workdir's directory, and the view has no network to install them.
     * {@code models_cache.json} is Codex's cache of the provider's model list, whose entry for the task's model gives
     * its instructions (they replace Codex's own), tools and reasoning: Codex uses a cache that is fresh by its {@code
     * fetched_at} (a future one too) and names the provider's {@code identity}, a digest of what {@code config.toml}
     * says when the provider needs no credentials, and it never fetches the list for such a provider, so a planted
     * cache became a later task's instructions (probe W). Empty, it is no cache: Codex fetches the list where it
     * fetches one (each child, unable to keep it) and otherwise uses its own.
     * {@code cloud-config-bundle-cache.json} is Codex's cache of an organisation's cloud-managed configuration (a
     * business, enterprise or edu ChatGPT login's), read at start before any fetch and applied above {@code
     * config.toml}: its signature is an HMAC with a key every Codex binary carries, over the login's user and account
     * (which any task can read) and an expiry the writer chooses, so a planted one started an MCP server without asking
     * and gave developer instructions (probe W). Empty, it is no cache: Codex fetches the configuration at each start,
     * as it does the first time, and fails the task where it cannot.
     * {@code cache/} holds Codex's caches of what a ChatGPT login's backend lists: the tools of its apps ({@code
     * codex_apps_tools/}, with {@code codex_apps_server_info/}), the apps directory ({@code codex_app_directory/}) and
     * the remote plugin catalog ({@code remote_plugin_catalog/}), each named by a digest of the login's account and
     * user, which any task can read. The apps tools cache has no expiry, and Codex gives its tools, with the names,
     * descriptions, annotations and MCP server it says, to the model while the apps server starts and whenever that
     * server cannot be reached: a planted one gave a later task's model a tool of its own (probe W2). Empty, it is no
     * cache: Codex lists them anew in each child, unable to keep them (it warns that it cannot write the apps cache).
     * {@code remote-plugin-checkout-cache/} (Codex's checkouts of remote plugin marketplaces, for installing a plugin,
     * which the view cannot) is shown empty as a precaution; a planted one was not tried.
     * {@code .tmp/plugins} is Codex's snapshot of the curated plugin marketplace ({@code openai-curated}), which its
     * start-up sync replaces when it can reach the repository and otherwise keeps: with plugins and apps on (Codex's
     * defaults) and a ChatGPT login, its {@code list_available_plugins_to_install} tool answered a later task's model
     * with the plugins of a planted snapshot, their descriptions, skills and MCP server names as planted (probe W3).
     * Empty, it is no snapshot: Codex offers no curated plugin (none can be installed in the view) and its sync, where
     * it reaches the repository, cannot put one there. The rest of {@code .tmp} (locks, a staging directory) stays.
     * {@code hooks.json} is fresh in each view ({@code {}}, no hooks): a hook runs once the operator's {@code
     * config.toml} trusts its key (the file's path, the event, the position) and hash, which are the same for the
     * workdir's file at the same path, so a task that wrote the operator's trusted hook there, with a script of its own
     * where the hook's command looks, had it run at a later task's start. The operator's own file is never shown.
     * {@link #STATE}, Codex's state database, is fresh in each view too ({@link #argv}).
     */
    static List<ProviderSandbox.Grants.Emptied> emptied(Path codexHome) {
        return List.of(
                ProviderSandbox.Grants.Emptied.directory(codexHome.resolve("rules")),
                ProviderSandbox.Grants.Emptied.directory(codexHome.resolve("skills")),
                ProviderSandbox.Grants.Emptied.file(codexHome.resolve("AGENTS.md")),
                ProviderSandbox.Grants.Emptied.file(codexHome.resolve("AGENTS.override.md")),
                ProviderSandbox.Grants.Emptied.file(codexHome.resolve(".env")),
                ProviderSandbox.Grants.Emptied.directory(codexHome.resolve("plugins")),
                ProviderSandbox.Grants.Emptied.file(codexHome.resolve("models_cache.json")),
                ProviderSandbox.Grants.Emptied.file(codexHome.resolve("cloud-config-bundle-cache.json")),
                ProviderSandbox.Grants.Emptied.directory(codexHome.resolve("cache")),
                ProviderSandbox.Grants.Emptied.directory(codexHome.resolve("remote-plugin-checkout-cache")),
                ProviderSandbox.Grants.Emptied.directory(codexHome.resolve(".tmp/plugins")),
                ProviderSandbox.Grants.Emptied.freshFile(codexHome.resolve("hooks.json"), "{}"),
                ProviderSandbox.Grants.Emptied.freshDirectory(codexHome.resolve(STATE)));
    }

    /** {@code read-only} or {@code workspace-write}: the mode string {@code thread/start} takes. */
    static String sandboxMode(TaskProfile profile) {
        return switch (profile) {
            case REVIEW -> "read-only";
            case WORKSPACE_WRITE -> "workspace-write";
        };
    }

    /** The object form {@code turn/start} takes, with the exclusions the mode string cannot express. */
    static ObjectNode sandboxPolicy(TaskProfile profile) {
        ObjectNode policy = JsonNodeFactory.instance.objectNode();
        switch (profile) {
            case REVIEW -> policy.put("type", "readOnly").put("networkAccess", false);
            case WORKSPACE_WRITE -> {
                policy.put("type", "workspaceWrite");
                policy.putArray("writableRoots");
                policy.put("networkAccess", false)
                        .put("excludeTmpdirEnvVar", true)
                        .put("excludeSlashTmp", true);
            }
        }
        return policy;
    }

    /**
     * {@code thread/start} params, or {@code thread/resume} ones with {@code threadId}. The workspace roots (writable
     * in {@code workspace-write}) are the cwd alone, sent here and on every turn: on a resume Codex otherwise takes them
     * from the thread's transcript in {@code CODEX_HOME/sessions}, which an approved command can rewrite (probe R).
     */
    static ObjectNode threadParams(Path cwd, TaskProfile profile, Optional<String> resumeThreadId) {
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        resumeThreadId.ifPresent(id -> params.put("threadId", id));
        params.put("cwd", cwd.toString()).put("approvalPolicy", APPROVAL_POLICY).put("sandbox", sandboxMode(profile));
        params.putArray("runtimeWorkspaceRoots").add(cwd.toString());
        if (resumeThreadId.isEmpty()) {
            params.put("serviceName", "serverfs-agent-bridge");
        }
        return params;
    }

    /** {@code turn/start} params: the prompt as text input, the cwd (the only workspace root), the policy again. */
    static ObjectNode turnParams(String threadId, String prompt, Path cwd, TaskProfile profile) {
        ObjectNode params = JsonNodeFactory.instance.objectNode().put("threadId", threadId);
        params.set("input", CodexWire.textInput(prompt));
        params.put("cwd", cwd.toString()).put("approvalPolicy", APPROVAL_POLICY);
        params.putArray("runtimeWorkspaceRoots").add(cwd.toString());
        params.set("sandboxPolicy", sandboxPolicy(profile));
        return params;
    }
}
