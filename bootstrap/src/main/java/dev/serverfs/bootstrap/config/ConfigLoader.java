package dev.serverfs.bootstrap.config;

import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.adapters.sqlite.SqliteTaskStores;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds the one immutable {@link ServerFsConfig} from the process environment and an optional {@code .env} file
 * (contract reference §1.5, §9; CONTRACT.md §4; v0.7.3 §4; v0.5 §11). The process environment wins over the
 * file. Every rule is checked at start-up; nothing guesses, so a typo is an error rather than access.
 */
public final class ConfigLoader {

    /** The file a disabled-slot placeholder directory contains (reference §1.1, §9.2). */
    public static final String DISABLED_SENTINEL = ".serverfs-disabled";

    /** The per-slot variable suffixes ({@code WORKDIR_NN_<suffix>}). */
    public static final List<String> WORKDIR_SUFFIXES = List.of(
            "ALIAS",
            "PATH",
            "DESCRIPTION",
            "READ_ONLY",
            "ALLOW_HIDDEN",
            "DISABLE_DEFAULT_DENY",
            "EXTRA_DENY_GLOBS",
            "MAX_READ_BYTES",
            "MAX_READ_LINES",
            "MAX_WRITE_BYTES",
            "BINARY_TRANSFER_ENABLED",
            "MAX_BINARY_TRANSFER_BYTES",
            "AGENT_MODE",
            "AGENT_RUNTIMES");

    /** The suffixes that are policy overrides (counted in {@code workdirs_with_policy_overrides}). */
    static final List<String> POLICY_OVERRIDE_SUFFIXES = List.of(
            "ALLOW_HIDDEN",
            "DISABLE_DEFAULT_DENY",
            "EXTRA_DENY_GLOBS",
            "MAX_READ_BYTES",
            "MAX_READ_LINES",
            "MAX_WRITE_BYTES",
            "BINARY_TRANSFER_ENABLED",
            "MAX_BINARY_TRANSFER_BYTES",
            "AGENT_MODE",
            "AGENT_RUNTIMES");

    /** Runtimes a workdir may allow; {@code fake} only with {@code SERVERFS_AGENT_ENABLE_FAKE_RUNTIME=true}. */
    public static final String RUNTIME_CODEX = "codex";

    public static final String RUNTIME_CLAUDE = "claude";
    public static final String RUNTIME_FAKE = "fake";

    /** The largest binary transfer limit accepted: whole files are held in memory as base64 text. */
    static final long MAX_BINARY_LIMIT = 1L << 30;

    private static final Pattern WORKDIR_VARIABLE = Pattern.compile("WORKDIR_([0-9]+)_(.*)");
    private static final Pattern MALFORMED_WORKDIR_VARIABLE = Pattern.compile("WORKDIR_?[0-9]+.*");
    private static final Pattern SAFE_TOKEN = Pattern.compile("[a-z0-9_-]{1,32}");
    private static final Set<String> LOG_LEVELS = Set.of("DEBUG", "INFO", "WARNING", "ERROR");

    private final Variables vars;

    private ConfigLoader(Variables vars) {
        this.vars = vars;
    }

    /**
     * Loads and validates the configuration.
     *
     * @param env the process environment (tests pass their own map)
     * @param envFile an optional {@code .env} file; its values apply only where {@code env} has no such name, and a
     *     relative {@code WORKDIR_NN_PATH} written in it resolves against the file's directory
     * @throws ConfigurationException with an agent-safe reason when any rule is violated
     */
    public static ServerFsConfig load(Map<String, String> env, Optional<Path> envFile) throws ConfigurationException {
        return new ConfigLoader(Variables.load(env, envFile)).build();
    }

    /** {@link #load} with this process's environment. */
    public static ServerFsConfig loadFromProcess(Optional<Path> envFile) throws ConfigurationException {
        return load(System.getenv(), envFile);
    }

    /**
     * The configuration of {@code serverfs bridge} (CONTRACT.md §3.4, reference §9.3): the same variables as {@link
     * #load}, and the Bridge's own rules: the Agent enabled and not embedded, a workdir with an agent mode, a state
     * directory; the socket is {@code SERVERFS_AGENT_BRIDGE_HOST_SOCKET_DIR/bridge.sock} and the lock directory
     * {@code SERVERFS_AGENT_LOCK_HOST_DIR} when set (the host side of compose.agent.yml's binds), else {@code
     * SERVERFS_AGENT_BRIDGE_SOCKET} and {@code SERVERFS_AGENT_LOCK_DIR}.
     */
    public static ServerFsConfig loadBridge(Map<String, String> env, Optional<Path> envFile)
            throws ConfigurationException {
        ConfigLoader loader = new ConfigLoader(Variables.load(env, envFile));
        return loader.bridge(loader.build());
    }

    private ServerFsConfig bridge(ServerFsConfig config) throws ConfigurationException {
        ServerFsConfig.Agent agent = config.agent();
        if (!agent.bridgeEnabled()) {
            throw new ConfigurationException("serverfs bridge needs SERVERFS_AGENT_BRIDGE_ENABLED=true");
        }
        if (agent.embedded()) {
            throw new ConfigurationException(
                    "serverfs bridge cannot run with SERVERFS_AGENT_EMBEDDED=true (serve hosts the Agent service then)");
        }
        if (!config.workdirs().anyAgentEnabled()) {
            throw new ConfigurationException(
                    "serverfs bridge needs a workdir whose agent mode is review or workspace-write");
        }
        Path stateDir = agent.stateDir()
                .orElseThrow(() -> new ConfigurationException(
                        "serverfs bridge needs SERVERFS_AGENT_BRIDGE_STATE_DIR (where the task store lives)"));
        Path socket = vars.absolutePath("SERVERFS_AGENT_BRIDGE_HOST_SOCKET_DIR")
                .map(dir -> dir.resolve("bridge.sock"))
                .orElse(agent.bridgeSocket());
        Path lockDir = vars.absolutePath("SERVERFS_AGENT_LOCK_HOST_DIR").orElse(agent.lockDir());
        verifyAgentDirectories(lockDir, stateDir);
        return new ServerFsConfig(
                config.logLevel(),
                config.network(),
                config.limits(),
                config.workdirs(),
                config.fileIngress(),
                agent.onHost(socket, lockDir),
                config.policySummary());
    }

    private ServerFsConfig build() throws ConfigurationException {
        rejectTypos();
        String logLevel = logLevel();
        ServerFsConfig.Network network = network();
        ServerLimits limits = limits();
        boolean fakeRuntimeEnabled = vars.strictBool("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", false);
        WorkdirPolicy global = globalPolicy(fakeRuntimeEnabled);
        boolean bridgeEnabled = vars.permissiveBool("SERVERFS_AGENT_BRIDGE_ENABLED", false);

        List<Workdir> workdirs = new ArrayList<>();
        Map<String, Integer> slotByAlias = new HashMap<>();
        int withOverrides = 0;
        for (int slot = 1; slot <= Workdir.MAX_SLOTS; slot++) {
            Optional<Workdir> workdir = slot(slot, global, fakeRuntimeEnabled, slotByAlias);
            if (workdir.isPresent()) {
                workdirs.add(workdir.get());
                if (hasPolicyOverride(slot)) {
                    withOverrides++;
                }
            }
        }
        for (Workdir w : workdirs) {
            if (w.policy().agentMode() != AgentMode.DISABLED && !bridgeEnabled) {
                throw new ConfigurationException(prefix(w.slot()) + "AGENT_MODE is "
                        + w.policy().agentMode().wire() + " for workdir '" + w.alias()
                        + "' but SERVERFS_AGENT_BRIDGE_ENABLED is not true");
            }
        }
        ServerFsConfig.Agent agent = agent(bridgeEnabled, fakeRuntimeEnabled, workdirs);
        ServerFsConfig.PolicySummary summary = new ServerFsConfig.PolicySummary(
                global.allowHidden(),
                !global.disableDefaultDeny(),
                global.extraDenyGlobs().size(),
                withOverrides);
        return new ServerFsConfig(logLevel, network, limits, new Workdirs(workdirs), fileIngress(), agent, summary);
    }

    private void rejectTypos() throws ConfigurationException {
        for (String name : new TreeSet<>(vars.names())) {
            Optional<String> meant = KnownVariables.nearMiss(name);
            if (meant.isPresent() && vars.get(name).isPresent()) {
                throw new ConfigurationException("unknown variable " + name + " (did you mean " + meant.get() + "?)");
            }
            Matcher m = WORKDIR_VARIABLE.matcher(name);
            if (vars.get(name).isEmpty()) {
                continue;
            }
            if (!m.matches()) {
                if (MALFORMED_WORKDIR_VARIABLE.matcher(name).matches()) {
                    throw new ConfigurationException(
                            name + ": workdir variables are named WORKDIR_NN_<SETTING>, for example WORKDIR_01_ALIAS");
                }
                continue;
            }
            String digits = m.group(1);
            int slot = digits.length() == 2 ? Integer.parseInt(digits) : -1;
            if (slot < 1 || slot > Workdir.MAX_SLOTS) {
                throw new ConfigurationException(name
                        + ": workdir slots are numbered with two digits from 01 to 16 (WORKDIR_01_ .. WORKDIR_16_)");
            }
            if (!WORKDIR_SUFFIXES.contains(m.group(2))) {
                throw new ConfigurationException("unknown variable " + name);
            }
        }
    }

    private String logLevel() {
        String level = vars.get("SERVERFS_LOG_LEVEL").orElse("INFO").toUpperCase(Locale.ROOT);
        return LOG_LEVELS.contains(level) ? level : "INFO";
    }

    private ServerFsConfig.Network network() throws ConfigurationException {
        String host = vars.get("SERVERFS_HOST").orElse("127.0.0.1");
        if (host.chars().anyMatch(c -> Character.isWhitespace(c) || c == '/' || c == '*')) {
            throw new ConfigurationException("SERVERFS_HOST must be an IP address or host name");
        }
        int port = 8000;
        Optional<String> rawPort = vars.get("SERVERFS_PORT");
        if (rawPort.isPresent()) {
            try {
                port = Integer.parseInt(rawPort.get());
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 1 || port > 65535) {
                throw new ConfigurationException("SERVERFS_PORT must be an integer from 1 to 65535");
            }
        }
        Set<String> allowedHosts = exactList("SERVERFS_ALLOWED_HOSTS");
        Set<String> allowedOrigins = exactList("SERVERFS_ALLOWED_ORIGINS");
        Optional<String> token = vars.get("SERVERFS_AUTH_TOKEN");
        if (token.isPresent() && !token.get().chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new ConfigurationException("SERVERFS_AUTH_TOKEN must be printable ASCII without spaces");
        }
        return new ServerFsConfig.Network(host, port, allowedHosts, allowedOrigins, token);
    }

    private Set<String> exactList(String name) throws ConfigurationException {
        Set<String> values = new LinkedHashSet<>();
        for (String item : vars.commaList(name)) {
            if (item.contains("*")) {
                throw new ConfigurationException(name + " must list exact values; wildcards ('*') are not allowed");
            }
            if (item.chars().anyMatch(Character::isWhitespace)) {
                throw new ConfigurationException(name + " entries must not contain spaces");
            }
            values.add(item);
        }
        return values;
    }

    private ServerLimits limits() {
        ServerLimits d = ServerLimits.DEFAULTS;
        return new ServerLimits(
                vars.permissiveInt("SERVERFS_DEFAULT_LIST_LIMIT", d.defaultListLimit()),
                vars.permissiveInt("SERVERFS_MAX_LIST_ENTRIES", d.maxListEntries()),
                vars.permissiveInt("SERVERFS_DEFAULT_SEARCH_RESULTS", d.defaultSearchResults()),
                vars.permissiveInt("SERVERFS_MAX_SEARCH_RESULTS", d.maxSearchResults()),
                vars.permissiveInt("SERVERFS_MAX_WALK_ENTRIES", d.maxWalkEntries()),
                vars.permissiveSeconds("SERVERFS_SEARCH_TIMEOUT_SECONDS", d.searchTimeout()),
                vars.permissiveLong("SERVERFS_SEARCH_MAX_FILE_BYTES", d.searchMaxFileBytes()),
                vars.permissiveInt("SERVERFS_MAX_EDITS_PER_CALL", d.maxEditsPerCall()));
    }

    /** The global defaults of every workdir policy (reference §9.1), validated on their own first. */
    private WorkdirPolicy globalPolicy(boolean fakeRuntimeEnabled) throws ConfigurationException {
        boolean allowHidden = vars.strictBool("SERVERFS_ALLOW_HIDDEN", false);
        boolean disableDefaultDeny = vars.strictBool("SERVERFS_DISABLE_DEFAULT_DENY", false);
        List<String> extraDenyGlobs = distinct(vars.commaList("SERVERFS_EXTRA_DENY_GLOBS"), List.of());
        int maxReadBytes = vars.strictPositiveInt("SERVERFS_MAX_READ_BYTES", 524_288);
        int maxReadLines = vars.strictPositiveInt("SERVERFS_MAX_READ_LINES", 500);
        int maxWriteBytes = vars.strictPositiveInt("SERVERFS_MAX_WRITE_BYTES", 1_048_576);
        boolean binary = vars.strictBool("SERVERFS_BINARY_TRANSFER_ENABLED", false);
        long maxBinary = vars.strictPositive("SERVERFS_MAX_BINARY_TRANSFER_BYTES", MAX_BINARY_LIMIT)
                .orElse(8_388_608L);
        AgentMode mode = agentMode("SERVERFS_AGENT_MODE").orElse(AgentMode.DISABLED);
        List<String> runtimes = runtimes("SERVERFS_AGENT_RUNTIMES", fakeRuntimeEnabled);
        if (mode == AgentMode.DISABLED && !runtimes.isEmpty()) {
            throw new ConfigurationException(
                    "SERVERFS_AGENT_RUNTIMES is set but SERVERFS_AGENT_MODE is disabled (set both or neither)");
        }
        if (mode != AgentMode.DISABLED && runtimes.isEmpty()) {
            throw new ConfigurationException("SERVERFS_AGENT_MODE is " + mode.wire()
                    + " but SERVERFS_AGENT_RUNTIMES is empty (set both or neither)");
        }
        return new WorkdirPolicy(
                allowHidden,
                disableDefaultDeny,
                extraDenyGlobs,
                maxReadBytes,
                maxReadLines,
                maxWriteBytes,
                binary,
                maxBinary,
                mode,
                new TreeSet<>(runtimes));
    }

    private Optional<Workdir> slot(
            int slot, WorkdirPolicy global, boolean fakeRuntimeEnabled, Map<String, Integer> slotByAlias)
            throws ConfigurationException {
        String p = prefix(slot);
        Optional<String> alias = vars.get(p + "ALIAS");
        Optional<Path> path = vars.path(p + "PATH");
        if (alias.isEmpty() && path.isEmpty()) {
            requireDisabledSlotIsInert(slot, fakeRuntimeEnabled);
            return Optional.empty();
        }
        if (path.isEmpty()) {
            throw new ConfigurationException(p + "ALIAS is set but " + p + "PATH is empty");
        }
        Path root = existingDirectory(p + "PATH", path.get());
        boolean sentinel = Files.exists(root.resolve(DISABLED_SENTINEL), LinkOption.NOFOLLOW_LINKS);
        if (alias.isEmpty()) {
            if (sentinel) {
                // A disabled-slot placeholder (reference §1.1): the slot stays off.
                requireDisabledSlotIsInert(slot, fakeRuntimeEnabled);
                return Optional.empty();
            }
            throw new ConfigurationException(p + "PATH is set but " + p + "ALIAS is empty");
        }
        if (sentinel) {
            throw new ConfigurationException(p + "ALIAS is set but " + p + "PATH contains the reserved file "
                    + DISABLED_SENTINEL + " (a disabled-slot placeholder)");
        }
        if (!WorkdirAlias.isValid(alias.get())) {
            throw new ConfigurationException(p + "ALIAS must match ^[A-Za-z][A-Za-z0-9_-]{0,31}$");
        }
        Integer other = slotByAlias.putIfAbsent(alias.get(), slot);
        if (other != null) {
            throw new ConfigurationException(
                    p + "ALIAS duplicates the alias of " + prefix(other) + "ALIAS ('" + alias.get() + "')");
        }
        boolean readOnly = vars.strictBool(p + "READ_ONLY", true);
        WorkdirPolicy policy = workdirPolicy(slot, global, readOnly, fakeRuntimeEnabled);
        return Optional.of(new Workdir(
                slot,
                new WorkdirAlias(alias.get()),
                vars.get(p + "DESCRIPTION"),
                readOnly ? Access.READ_ONLY : Access.READ_WRITE,
                policy,
                root));
    }

    /** A slot without a workdir may not carry settings that would matter if it had one (reference §9.2). */
    private void requireDisabledSlotIsInert(int slot, boolean fakeRuntimeEnabled) throws ConfigurationException {
        String p = prefix(slot);
        if (!vars.strictBool(p + "READ_ONLY", true)) {
            throw new ConfigurationException(p + "READ_ONLY=false on a disabled slot (" + p + "ALIAS is empty)");
        }
        Optional<AgentMode> mode = agentMode(p + "AGENT_MODE");
        if (mode.isPresent() && mode.get() != AgentMode.DISABLED) {
            throw new ConfigurationException(p + "AGENT_MODE is set on a disabled slot (" + p + "ALIAS is empty)");
        }
        if (!runtimes(p + "AGENT_RUNTIMES", fakeRuntimeEnabled).isEmpty()) {
            throw new ConfigurationException(p + "AGENT_RUNTIMES is set on a disabled slot (" + p + "ALIAS is empty)");
        }
        if (vars.strictBool(p + "BINARY_TRANSFER_ENABLED", false)) {
            throw new ConfigurationException(
                    p + "BINARY_TRANSFER_ENABLED=true on a disabled slot (" + p + "ALIAS is empty)");
        }
    }

    private WorkdirPolicy workdirPolicy(int slot, WorkdirPolicy global, boolean readOnly, boolean fakeRuntimeEnabled)
            throws ConfigurationException {
        String p = prefix(slot);
        Optional<AgentMode> explicitMode = agentMode(p + "AGENT_MODE");
        List<String> explicitRuntimes = runtimes(p + "AGENT_RUNTIMES", fakeRuntimeEnabled);
        AgentMode mode = explicitMode.orElse(global.agentMode());
        Set<String> runtimes;
        if (!explicitRuntimes.isEmpty()) {
            runtimes = new TreeSet<>(explicitRuntimes);
        } else if (explicitMode.isPresent() && explicitMode.get() == AgentMode.DISABLED) {
            // An explicit AGENT_MODE=disabled with empty runtimes also resets the inherited runtimes (§9.2).
            runtimes = new TreeSet<>();
        } else {
            runtimes = new TreeSet<>(global.agentRuntimes());
        }
        String modeVars = "(" + p + "AGENT_MODE or SERVERFS_AGENT_MODE)";
        String runtimeVars = "(" + p + "AGENT_RUNTIMES or SERVERFS_AGENT_RUNTIMES)";
        if (mode == AgentMode.DISABLED && !runtimes.isEmpty()) {
            throw new ConfigurationException(
                    p + "AGENT_RUNTIMES: agent runtimes need an enabled agent mode " + modeVars);
        }
        if (mode != AgentMode.DISABLED && runtimes.isEmpty()) {
            throw new ConfigurationException(
                    p + "AGENT_MODE is " + mode.wire() + " but no agent runtime is allowed " + runtimeVars);
        }
        if (mode == AgentMode.WORKSPACE_WRITE && readOnly) {
            throw new ConfigurationException(
                    p + "AGENT_MODE is workspace-write but the workdir is read-only (" + p + "READ_ONLY)");
        }
        for (String runtime : runtimes) {
            boolean needsWrite = runtime.equals(RUNTIME_CODEX) || runtime.equals(RUNTIME_CLAUDE);
            if (needsWrite && mode != AgentMode.WORKSPACE_WRITE) {
                throw new ConfigurationException(
                        p + "AGENT_RUNTIMES: runtime " + runtime + " needs agent mode workspace-write " + modeVars);
            }
        }
        return new WorkdirPolicy(
                vars.strictBool(p + "ALLOW_HIDDEN").orElse(global.allowHidden()),
                vars.strictBool(p + "DISABLE_DEFAULT_DENY").orElse(global.disableDefaultDeny()),
                distinct(global.extraDenyGlobs(), vars.commaList(p + "EXTRA_DENY_GLOBS")),
                vars.strictPositive(p + "MAX_READ_BYTES", Integer.MAX_VALUE)
                        .map(Long::intValue)
                        .orElse(global.maxReadBytes()),
                vars.strictPositive(p + "MAX_READ_LINES", Integer.MAX_VALUE)
                        .map(Long::intValue)
                        .orElse(global.maxReadLines()),
                vars.strictPositive(p + "MAX_WRITE_BYTES", Integer.MAX_VALUE)
                        .map(Long::intValue)
                        .orElse(global.maxWriteBytes()),
                vars.strictBool(p + "BINARY_TRANSFER_ENABLED").orElse(global.binaryTransferEnabled()),
                vars.strictPositive(p + "MAX_BINARY_TRANSFER_BYTES", MAX_BINARY_LIMIT)
                        .orElse(global.maxBinaryTransferBytes()),
                mode,
                new TreeSet<>(runtimes));
    }

    private boolean hasPolicyOverride(int slot) {
        for (String suffix : POLICY_OVERRIDE_SUFFIXES) {
            if (vars.get(prefix(slot) + suffix).isPresent()) {
                return true;
            }
        }
        return false;
    }

    private Optional<AgentMode> agentMode(String name) throws ConfigurationException {
        Optional<String> raw = vars.get(name);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        Optional<AgentMode> mode = AgentMode.fromWire(raw.get().toLowerCase(Locale.ROOT));
        if (mode.isEmpty()) {
            throw new ConfigurationException(name + " must be disabled, review or workspace-write");
        }
        return mode;
    }

    private List<String> runtimes(String name, boolean fakeRuntimeEnabled) throws ConfigurationException {
        List<String> result = new ArrayList<>();
        for (String item : vars.commaList(name)) {
            String runtime = item.toLowerCase(Locale.ROOT);
            boolean known = runtime.equals(RUNTIME_CODEX) || runtime.equals(RUNTIME_CLAUDE);
            if (runtime.equals(RUNTIME_FAKE)) {
                if (!fakeRuntimeEnabled) {
                    throw new ConfigurationException(
                            name + ": runtime fake needs SERVERFS_AGENT_ENABLE_FAKE_RUNTIME=true (tests only)");
                }
                known = true;
            }
            if (!known) {
                String shown = SAFE_TOKEN.matcher(runtime).matches() ? " '" + runtime + "'" : "";
                throw new ConfigurationException(name + ": unknown runtime" + shown + " (allowed: codex, claude)");
            }
            if (result.contains(runtime)) {
                throw new ConfigurationException(name + " lists runtime " + runtime + " more than once");
            }
            result.add(runtime);
        }
        return List.copyOf(result);
    }

    private ServerFsConfig.FileIngress fileIngress() throws ConfigurationException {
        boolean enabled = vars.strictBool("SERVERFS_FILE_INGRESS_ENABLED", false);
        Duration timeout = vars.permissiveSeconds("SERVERFS_FILE_INGRESS_TIMEOUT_SECONDS", Duration.ofSeconds(30));
        String url = ServerFsConfig.FileIngress.DEFAULT_SIDECAR_URL;
        Optional<String> override = vars.get("SERVERFS_FILE_INGRESS_URL");
        if (override.isPresent()) {
            url = sidecarUrl(override.get());
        }
        return new ServerFsConfig.FileIngress(enabled, timeout, url);
    }

    private static String sidecarUrl(String raw) throws ConfigurationException {
        String reason = "SERVERFS_FILE_INGRESS_URL must be an http:// or https:// URL with a host and path,"
                + " without user info, query or fragment";
        try {
            URI uri = new URI(raw);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https"))
                    || uri.getHost() == null
                    || uri.getRawUserInfo() != null
                    || uri.getRawQuery() != null
                    || uri.getRawFragment() != null) {
                throw new ConfigurationException(reason);
            }
            return uri.toString();
        } catch (URISyntaxException e) {
            throw new ConfigurationException(reason);
        }
    }

    private ServerFsConfig.Agent agent(boolean bridgeEnabled, boolean fakeRuntimeEnabled, List<Workdir> workdirs)
            throws ConfigurationException {
        boolean embedded = vars.strictBool("SERVERFS_AGENT_EMBEDDED", false);
        if (embedded && !bridgeEnabled) {
            throw new ConfigurationException(
                    "SERVERFS_AGENT_EMBEDDED=true needs SERVERFS_AGENT_BRIDGE_ENABLED=true (the Agent master switch)");
        }
        Path socket =
                agentPath("SERVERFS_AGENT_BRIDGE_SOCKET", "/run/serverfs-agent-bridge/bridge.sock", bridgeEnabled);
        Path lockDir = agentPath("SERVERFS_AGENT_LOCK_DIR", "/run/serverfs-agent-locks", bridgeEnabled);
        Optional<Path> stateDir = vars.absolutePath("SERVERFS_AGENT_BRIDGE_STATE_DIR");
        if (embedded && stateDir.isEmpty()) {
            throw new ConfigurationException(
                    "SERVERFS_AGENT_EMBEDDED=true needs SERVERFS_AGENT_BRIDGE_STATE_DIR (where the task store lives)");
        }
        if (embedded && workdirs.stream().anyMatch(w -> w.policy().agentMode() != AgentMode.DISABLED)) {
            verifyAgentDirectories(lockDir, stateDir.orElseThrow());
        }
        Duration bridgeTimeout =
                vars.permissiveSeconds("SERVERFS_AGENT_BRIDGE_TIMEOUT_SECONDS", Duration.ofSeconds(30));
        int taskTimeout = vars.strictPositiveInt("SERVERFS_AGENT_TASK_TIMEOUT_SECONDS", 7200);
        int interactionTimeout = vars.strictPositiveInt("SERVERFS_AGENT_INTERACTION_TIMEOUT_SECONDS", 1800);
        int maxActiveTasks = vars.strictPositiveInt("SERVERFS_AGENT_MAX_ACTIVE_TASKS", 4);
        int retentionHours = vars.strictPositiveInt("SERVERFS_AGENT_TASK_RETENTION_HOURS", 168);
        Set<String> runtimes = new TreeSet<>();
        for (Workdir w : workdirs) {
            runtimes.addAll(w.policy().agentRuntimes());
        }
        return new ServerFsConfig.Agent(
                bridgeEnabled,
                embedded,
                socket,
                bridgeTimeout,
                lockDir,
                stateDir,
                fakeRuntimeEnabled,
                Duration.ofSeconds(taskTimeout),
                Duration.ofSeconds(interactionTimeout),
                maxActiveTasks,
                Duration.ofHours(retentionHours),
                List.copyOf(runtimes),
                claude(),
                codex(),
                peerId("SERVERFS_AGENT_PEER_UID"),
                peerId("SERVERFS_AGENT_PEER_GID"));
    }

    /** A numeric uid or gid (reference §9.3: measured {@code SO_PEERCRED}); empty = the Bridge's own. */
    private Optional<Integer> peerId(String name) throws ConfigurationException {
        if (vars.get(name).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(vars.strictIntInRange(name, 0, Integer.MAX_VALUE - 1, 0));
    }

    /**
     * The directories the embedded Agent service prepares at start-up, checked here so that a refusal is a
     * configuration error like any other, before anything is created (issue 10 §10): the lock directory as {@code
     * FlockWriterLeases.prepare} needs it, the state directory as reference §5 requires it.
     */
    private static void verifyAgentDirectories(Path lockDir, Path stateDir) throws ConfigurationException {
        try {
            FlockWriterLeases.verifyPreparable(lockDir);
        } catch (ServerFsException e) {
            throw new ConfigurationException("SERVERFS_AGENT_LOCK_DIR: " + e.getMessage());
        }
        try {
            SqliteTaskStores.verifyStateDirectory(stateDir);
        } catch (ServerFsException e) {
            throw new ConfigurationException("SERVERFS_AGENT_BRIDGE_STATE_DIR: " + e.getMessage());
        }
    }

    /** Reference §9.3 names, and {@code SERVERFS_AGENT_CLAUDE_BIN}, which wins over {@code SERVERFS_CLAUDE_BIN}. */
    private ServerFsConfig.Claude claude() throws ConfigurationException {
        String bin = vars.get("SERVERFS_AGENT_CLAUDE_BIN")
                .or(() -> vars.get("SERVERFS_CLAUDE_BIN"))
                .map(String::strip)
                .filter(b -> !b.isEmpty())
                .orElse(ServerFsConfig.Claude.DEFAULTS.bin());
        if (bin.indexOf('\0') >= 0) {
            throw new ConfigurationException("SERVERFS_AGENT_CLAUDE_BIN must be a program name or path");
        }
        int probeSeconds = vars.strictPositiveInt("SERVERFS_CLAUDE_PROBE_TIMEOUT_SECONDS", 5);
        return new ServerFsConfig.Claude(bin, Duration.ofSeconds(probeSeconds));
    }

    /**
     * Reference §9.3 names that apply to a stdio child, and {@code SERVERFS_AGENT_CODEX_BIN}, which wins over {@code
     * SERVERFS_CODEX_BIN}. {@code SERVERFS_CODEX_HOME} must be absolute when set; {@code SERVERFS_CODEX_AUTOSTART}
     * (the reference's daemon start) does not apply: ServerFS starts every Codex child itself.
     */
    private ServerFsConfig.Codex codex() throws ConfigurationException {
        String bin = vars.get("SERVERFS_AGENT_CODEX_BIN")
                .or(() -> vars.get("SERVERFS_CODEX_BIN"))
                .map(String::strip)
                .filter(b -> !b.isEmpty())
                .orElse(ServerFsConfig.Codex.DEFAULTS.bin());
        if (bin.indexOf('\0') >= 0) {
            throw new ConfigurationException("SERVERFS_AGENT_CODEX_BIN must be a program name or path");
        }
        Optional<Path> home = vars.absolutePath("SERVERFS_CODEX_HOME");
        int timeout = vars.strictPositiveInt("SERVERFS_CODEX_REQUEST_TIMEOUT_SECONDS", 10);
        return new ServerFsConfig.Codex(bin, home, Duration.ofSeconds(timeout));
    }

    /** Absolute when the Agent is enabled (reference §1.5); otherwise unused, so only kept when parseable. */
    private Path agentPath(String name, String defaultValue, boolean required) throws ConfigurationException {
        if (required) {
            return vars.absolutePath(name).orElse(Path.of(defaultValue));
        }
        try {
            return vars.get(name).map(Path::of).orElse(Path.of(defaultValue));
        } catch (InvalidPathException e) {
            return Path.of(defaultValue);
        }
    }

    private static Path existingDirectory(String name, Path path) throws ConfigurationException {
        Path real;
        try {
            real = path.toRealPath();
        } catch (NoSuchFileException e) {
            throw new ConfigurationException(name + " does not exist (it is never created automatically)");
        } catch (IOException | SecurityException e) {
            throw new ConfigurationException(name + " cannot be accessed");
        }
        if (!Files.isDirectory(real)) {
            throw new ConfigurationException(name + " is not a directory");
        }
        return real;
    }

    private static List<String> distinct(List<String> first, List<String> second) {
        Set<String> all = new LinkedHashSet<>(first);
        all.addAll(second);
        return List.copyOf(all);
    }

    private static String prefix(int slot) {
        return String.format(Locale.ROOT, "WORKDIR_%02d_", slot);
    }
}
