package dev.serverfs.bootstrap.config;

import static dev.serverfs.bootstrap.config.Setting.Group.AGENT;

import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.provider.AgentRuntimeDescriptor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The catalogue's settings of Agent delegation: the MCP side, the Bridge and the provider children (contract reference
 * §9.1, §9.3; v0.7.3 §4). Every {@code SERVERFS_AGENT_*} name that ServerFS reads is written here once, except the
 * runtimes' own settings, which each runtime's descriptor declares ({@link AgentRuntimeCatalogue}), and the Bridge's
 * metrics listener, beside serve's in ServerSettings.
 */
public final class AgentSettings {

    /** {@code codex, claude}: the runtimes a production workdir may allow. */
    private static final List<String> PRODUCTION_RUNTIMES = AgentRuntimeCatalogue.offered(false);

    private static final Pattern SAFE_TOKEN = Pattern.compile("[a-z0-9_-]{1,32}");

    /** {@code disabled}, {@code review} or {@code workspace-write}, any case; anything else is an error. */
    static final Style<AgentMode> MODE = new Style<>("`disabled`/`review`/`workspace-write`", (vars, name) -> {
        Optional<String> raw = vars.get(name);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        Optional<AgentMode> mode = AgentMode.fromWire(raw.get().toLowerCase(Locale.ROOT));
        if (mode.isEmpty()) {
            throw new ConfigurationException(name + " must be disabled, review or workspace-write");
        }
        return mode;
    });

    /** A comma list of runtime names, lower-cased, each known and listed once; unset is the empty list. */
    static final Style<List<String>> RUNTIMES = new Style<>(
            PRODUCTION_RUNTIMES.stream()
                    .map(r -> "`" + r + "`")
                    .collect(Collectors.joining(", ", "comma list ⊆ {", "}")),
            (vars, name) -> Optional.of(runtimes(vars, name)));

    public static final Setting<Boolean> BRIDGE_ENABLED = Setting.of(
            "SERVERFS_AGENT_BRIDGE_ENABLED",
            AGENT,
            Style.permissiveBool(),
            "false",
            "Master switch of the Agent tools (compose.agent.yml turns it on).");
    public static final Setting<AgentMode> AGENT_MODE = Setting.of(
            "SERVERFS_AGENT_MODE", AGENT, MODE, "disabled", "Global agent mode: disabled, review or workspace-write.");
    public static final Setting<List<String>> AGENT_RUNTIMES = Setting.of(
            "SERVERFS_AGENT_RUNTIMES",
            AGENT,
            RUNTIMES,
            "",
            "Global comma-separated runtimes (codex, claude); set together with a mode other than disabled.");
    public static final Setting<Boolean> EMBEDDED = Setting.of(
            "SERVERFS_AGENT_EMBEDDED",
            AGENT,
            Style.strictBool(),
            "false",
            "true: serve hosts the Agent service itself (one machine, no Bridge socket).");
    public static final Setting<Path> BRIDGE_SOCKET = Setting.of(
            "SERVERFS_AGENT_BRIDGE_SOCKET",
            AGENT,
            Style.absolutePath("path; absolute when the master switch is on"),
            "/run/serverfs-agent-bridge/bridge.sock",
            "The Bridge's socket (compose.agent.yml sets the container's path).");
    public static final Setting<Duration> BRIDGE_TIMEOUT_SECONDS = Setting.of(
            "SERVERFS_AGENT_BRIDGE_TIMEOUT_SECONDS",
            AGENT,
            Style.permissiveSeconds(),
            "30",
            "Time bound of one Bridge call, in seconds.");
    public static final Setting<Path> LOCK_DIR = Setting.of(
            "SERVERFS_AGENT_LOCK_DIR",
            AGENT,
            Style.absolutePath("path; absolute when the master switch is on"),
            "/run/serverfs-agent-locks",
            "The writer-lease and recovery-guard directory (compose.agent.yml sets the container's path).");
    public static final Setting<Path> BRIDGE_STATE_DIR = Setting.of(
            "SERVERFS_AGENT_BRIDGE_STATE_DIR",
            AGENT,
            Style.absolutePath("absolute path"),
            "",
            "Where the task store and result spool live (required when SERVERFS_AGENT_EMBEDDED=true).");
    public static final Setting<Path> BRIDGE_HOST_SOCKET_DIR = Setting.of(
            "SERVERFS_AGENT_BRIDGE_HOST_SOCKET_DIR",
            AGENT,
            Style.absolutePath("absolute host path"),
            "",
            "compose.agent.yml: the host directory holding the Bridge's bridge.sock, bound read-only.");
    public static final Setting<Path> LOCK_HOST_DIR = Setting.of(
            "SERVERFS_AGENT_LOCK_HOST_DIR",
            AGENT,
            Style.absolutePath("absolute host path"),
            "",
            "compose.agent.yml: the host directory holding the Bridge's NN.lock files, bound read-only.");
    public static final Setting<Integer> PEER_UID = Setting.of(
            "SERVERFS_AGENT_PEER_UID",
            AGENT,
            Style.integer(0, Integer.MAX_VALUE - 1),
            "",
            "serverfs bridge: the SO_PEERCRED uid serverfs-mcp connects with (empty: the Bridge's own; `id -u`).");
    public static final Setting<Integer> PEER_GID = Setting.of(
            "SERVERFS_AGENT_PEER_GID",
            AGENT,
            Style.integer(0, Integer.MAX_VALUE - 1),
            "",
            "serverfs bridge: the SO_PEERCRED gid serverfs-mcp connects with (empty: the Bridge's own; `id -g`).");
    public static final Setting<Boolean> ENABLE_FAKE_RUNTIME = Setting.of(
            "SERVERFS_AGENT_ENABLE_FAKE_RUNTIME",
            AGENT,
            Style.strictBool(),
            "false",
            "Tests only: allows the runtime name fake.");
    public static final Setting<Integer> TASK_TIMEOUT_SECONDS = Setting.of(
            "SERVERFS_AGENT_TASK_TIMEOUT_SECONDS",
            AGENT,
            Style.strictPositiveInt(),
            "7200",
            "Deadline of one task, in seconds.");
    public static final Setting<Integer> INTERACTION_TIMEOUT_SECONDS = Setting.of(
            "SERVERFS_AGENT_INTERACTION_TIMEOUT_SECONDS",
            AGENT,
            Style.strictPositiveInt(),
            "1800",
            "How long an approval or question waits for an answer, in seconds.");
    public static final Setting<Integer> MAX_ACTIVE_TASKS = Setting.of(
            "SERVERFS_AGENT_MAX_ACTIVE_TASKS", AGENT, Style.strictPositiveInt(), "4", "Most tasks active at once.");
    public static final Setting<Integer> TASK_RETENTION_HOURS = Setting.of(
            "SERVERFS_AGENT_TASK_RETENTION_HOURS",
            AGENT,
            Style.strictPositiveInt(),
            "168",
            "How long finished tasks are kept, in hours.");
    /** A comma list of absolute paths; a relative one is an error. */
    static final Style<List<Path>> ABSOLUTE_PATHS = new Style<>("comma list of absolute paths", (vars, name) -> {
        List<Path> paths = new ArrayList<>();
        for (String item : vars.commaList(name)) {
            Path p = Path.of(item);
            if (!p.isAbsolute()) {
                throw new ConfigurationException(name + " must list absolute paths");
            }
            paths.add(p.normalize());
        }
        return Optional.of(List.copyOf(paths));
    });

    public static final Setting<Boolean> ALLOW_UNCONFINED = Setting.of(
            "SERVERFS_AGENT_ALLOW_UNCONFINED",
            AGENT,
            Style.strictBool(),
            "false",
            "true: run codex and claude without their filesystem view where bubblewrap cannot build it (logged at"
                    + " every start; see docs/AGENTS.md).");
    public static final Setting<String> BWRAP_BIN = Setting.of(
            "SERVERFS_AGENT_BWRAP_BIN",
            AGENT,
            Style.text("program name or path"),
            "bwrap",
            "The bubblewrap executable that builds each provider child's filesystem view (a program on PATH or a"
                    + " path).");
    public static final Setting<List<Path>> SANDBOX_READ_ONLY_PATHS = Setting.of(
            "SERVERFS_AGENT_SANDBOX_READ_ONLY_PATHS",
            AGENT,
            ABSOLUTE_PATHS,
            "",
            "Extra paths a provider child sees read-only besides /usr and /etc (toolchains under /opt, say).");

    /** A comma list of {@code host:port} entries (an IPv6 literal in brackets); anything else is an error. */
    static final Style<List<String>> HOST_PORTS = new Style<>("comma list of host:port", (vars, name) -> {
        List<String> entries = new ArrayList<>();
        for (String item : vars.commaList(name)) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                            "(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+):([0-9]{1,5})")
                    .matcher(item.strip());
            if (!m.matches() || Integer.parseInt(m.group(2)) < 1 || Integer.parseInt(m.group(2)) > 65535) {
                throw new ConfigurationException(name + " must list host:port entries");
            }
            entries.add(item.strip());
        }
        return Optional.of(List.copyOf(entries));
    });

    public static final Setting<List<String>> EGRESS_ALLOW = Setting.of(
            "SERVERFS_AGENT_EGRESS_ALLOW",
            AGENT,
            HOST_PORTS,
            "",
            "Extra host:port entries a provider child may reach through the egress relay besides its endpoints (the"
                    + " providers' API and login hosts, OPENAI_BASE_URL, ANTHROPIC_BASE_URL); loopback and private"
                    + " addresses only when listed here (see docs/AGENTS.md).");

    static final List<Setting<?>> ALL = Stream.of(
                    List.<Setting<?>>of(
                            BRIDGE_ENABLED,
                            AGENT_MODE,
                            AGENT_RUNTIMES,
                            EMBEDDED,
                            BRIDGE_SOCKET,
                            BRIDGE_TIMEOUT_SECONDS,
                            LOCK_DIR,
                            BRIDGE_STATE_DIR,
                            BRIDGE_HOST_SOCKET_DIR,
                            LOCK_HOST_DIR,
                            PEER_UID,
                            PEER_GID,
                            ENABLE_FAKE_RUNTIME,
                            TASK_TIMEOUT_SECONDS,
                            INTERACTION_TIMEOUT_SECONDS,
                            MAX_ACTIVE_TASKS,
                            TASK_RETENTION_HOURS),
                    AgentRuntimeCatalogue.SETTINGS,
                    List.<Setting<?>>of(ALLOW_UNCONFINED, BWRAP_BIN, SANDBOX_READ_ONLY_PATHS, EGRESS_ALLOW))
            .flatMap(List::stream)
            .toList();

    private AgentSettings() {}

    private static List<String> runtimes(Variables vars, String name) throws ConfigurationException {
        List<String> result = new ArrayList<>();
        for (String item : vars.commaList(name)) {
            String runtime = item.toLowerCase(Locale.ROOT);
            // a workdir may allow the runtimes ServerFS knows; the test-only one only when it is enabled
            Optional<AgentRuntimeDescriptor> known = AgentRuntimeCatalogue.find(runtime);
            if (known.isPresent() && known.get().testOnly() && !ENABLE_FAKE_RUNTIME.get(vars)) {
                throw new ConfigurationException(
                        name + ": runtime " + runtime + " needs SERVERFS_AGENT_ENABLE_FAKE_RUNTIME=true (tests only)");
            }
            if (known.isEmpty()) {
                String shown = SAFE_TOKEN.matcher(runtime).matches() ? " '" + runtime + "'" : "";
                throw new ConfigurationException(name + ": unknown runtime" + shown + " (allowed: "
                        + String.join(", ", PRODUCTION_RUNTIMES) + ")");
            }
            if (result.contains(runtime)) {
                throw new ConfigurationException(name + " lists runtime " + runtime + " more than once");
            }
            result.add(runtime);
        }
        return List.copyOf(result);
    }
}
