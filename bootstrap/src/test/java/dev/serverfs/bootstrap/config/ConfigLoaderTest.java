package dev.serverfs.bootstrap.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.provider.AgentRuntimeDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every start-up rule of contract reference §1.5, §9.1, §9.2 and CONTRACT.md §4, with its exact reason. */
class ConfigLoaderTest {

    @TempDir
    Path tmp;

    private Path docs;
    private Path scratch;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void directories() throws Exception {
        docs = Files.createDirectory(tmp.resolve("docs"));
        scratch = Files.createDirectory(tmp.resolve("scratch"));
    }

    private ServerFsConfig load() throws ConfigurationException {
        return ConfigLoader.load(env, Optional.empty());
    }

    /** Asserts the exact reason, and that no host path leaks into it. */
    private void assertRejected(String reason) {
        ConfigurationException e = assertThrows(ConfigurationException.class, this::load);
        assertEquals(reason, e.reason());
        assertEquals(reason, e.getMessage());
        assertFalse(e.reason().contains(tmp.toString()), "host path in reason: " + e.reason());
        assertFalse(e.reason().contains("/"), "path-like text in reason: " + e.reason());
    }

    private void docsWorkdir() {
        env.put("WORKDIR_01_ALIAS", "docs");
        env.put("WORKDIR_01_PATH", docs.toString());
    }

    private void scratchWorkdir() {
        env.put("WORKDIR_02_ALIAS", "scratch");
        env.put("WORKDIR_02_PATH", scratch.toString());
        env.put("WORKDIR_02_READ_ONLY", "false");
    }

    private void bridge() {
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
    }

    // ---- defaults --------------------------------------------------------------------------------------

    @Test
    void an_empty_environment_gives_the_documented_defaults() throws Exception {
        ServerFsConfig c = load();
        assertEquals("INFO", c.logLevel());
        assertEquals("127.0.0.1", c.network().host());
        assertEquals(8000, c.network().port());
        assertEquals(Set.of(), c.network().allowedHosts());
        assertEquals(Set.of(), c.network().allowedOrigins());
        assertEquals(Optional.empty(), c.network().authToken());
        assertEquals(ServerLimits.DEFAULTS, c.limits());
        assertEquals(List.of(), c.workdirs().all());
        assertFalse(c.fileIngress().enabled());
        assertEquals(Duration.ofSeconds(30), c.fileIngress().timeout());
        assertEquals("http://serverfs-file-ingress:8081/fetch", c.fileIngress().sidecarUrl());
        ServerFsConfig.Agent a = c.agent();
        assertFalse(a.bridgeEnabled());
        assertFalse(a.embedded());
        assertEquals(Path.of("/run/serverfs-agent-bridge/bridge.sock"), a.bridgeSocket());
        assertEquals(Duration.ofSeconds(30), a.bridgeTimeout());
        assertEquals(Path.of("/run/serverfs-agent-locks"), a.lockDir());
        assertEquals(Optional.empty(), a.stateDir());
        assertFalse(a.fakeRuntimeEnabled());
        assertEquals(Duration.ofSeconds(7200), a.taskTimeout());
        assertEquals(Duration.ofSeconds(1800), a.interactionTimeout());
        assertEquals(4, a.maxActiveTasks());
        assertEquals(Duration.ofHours(168), a.retention());
        assertEquals(List.of(), a.enabledRuntimes());
        assertEquals(new ServerFsConfig.PolicySummary(false, true, 0, 0), c.policySummary());
    }

    @Test
    void a_workdir_gets_the_global_default_policy_and_is_read_only_by_default() throws Exception {
        docsWorkdir();
        Workdir w = load().workdirs().require("docs");
        assertEquals(1, w.slot());
        assertEquals(Access.READ_ONLY, w.access());
        assertEquals(docs.toRealPath(), w.root());
        assertEquals(Optional.empty(), w.description());
        assertEquals(
                new WorkdirPolicy(
                        false,
                        false,
                        List.of(),
                        524_288,
                        500,
                        1_048_576,
                        false,
                        8_388_608L,
                        AgentMode.DISABLED,
                        new java.util.TreeSet<>()),
                w.policy());
    }

    @Test
    void read_only_is_a_strict_bool() throws Exception {
        docsWorkdir();
        env.put("WORKDIR_01_READ_ONLY", "false");
        assertEquals(Access.READ_WRITE, load().workdirs().require("docs").access());
        env.put("WORKDIR_01_READ_ONLY", "0");
        assertEquals(Access.READ_WRITE, load().workdirs().require("docs").access());
        env.put("WORKDIR_01_READ_ONLY", "fasle");
        assertRejected("WORKDIR_01_READ_ONLY must be true or false");
    }

    // ---- global settings -----------------------------------------------------------------------------

    @Test
    void log_level_accepts_the_four_names_and_falls_back_to_info() throws Exception {
        env.put("SERVERFS_LOG_LEVEL", "warning");
        assertEquals("WARNING", load().logLevel());
        env.put("SERVERFS_LOG_LEVEL", "DEBUG");
        assertEquals("DEBUG", load().logLevel());
        env.put("SERVERFS_LOG_LEVEL", "TRACE");
        assertEquals("INFO", load().logLevel());
        env.put("SERVERFS_LOG_LEVEL", "WARN");
        assertEquals("INFO", load().logLevel());
    }

    @Test
    void strict_global_values_are_errors_when_malformed() {
        env.put("SERVERFS_ALLOW_HIDDEN", "maybe");
        assertRejected("SERVERFS_ALLOW_HIDDEN must be true or false");
        env.clear();
        env.put("SERVERFS_DISABLE_DEFAULT_DENY", "2");
        assertRejected("SERVERFS_DISABLE_DEFAULT_DENY must be true or false");
        env.clear();
        env.put("SERVERFS_BINARY_TRANSFER_ENABLED", "enabled");
        assertRejected("SERVERFS_BINARY_TRANSFER_ENABLED must be true or false");
        env.clear();
        env.put("SERVERFS_FILE_INGRESS_ENABLED", "y");
        assertRejected("SERVERFS_FILE_INGRESS_ENABLED must be true or false");
        env.clear();
        env.put("SERVERFS_AGENT_EMBEDDED", "sure");
        assertRejected("SERVERFS_AGENT_EMBEDDED must be true or false");
        env.clear();
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "t");
        assertRejected("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME must be true or false");
        for (String name : List.of(
                "SERVERFS_MAX_READ_BYTES",
                "SERVERFS_MAX_READ_LINES",
                "SERVERFS_MAX_WRITE_BYTES",
                "SERVERFS_MAX_BINARY_TRANSFER_BYTES",
                "SERVERFS_AGENT_TASK_TIMEOUT_SECONDS",
                "SERVERFS_AGENT_INTERACTION_TIMEOUT_SECONDS",
                "SERVERFS_AGENT_MAX_ACTIVE_TASKS",
                "SERVERFS_AGENT_TASK_RETENTION_HOURS")) {
            for (String bad : List.of("0", "-1", "ten", "1.5")) {
                env.clear();
                env.put(name, bad);
                assertRejected(name + " must be a positive integer");
            }
        }
        env.clear();
        env.put("SERVERFS_MAX_BINARY_TRANSFER_BYTES", "1073741825");
        assertRejected("SERVERFS_MAX_BINARY_TRANSFER_BYTES must be a positive integer no larger than 1073741824");
    }

    @Test
    void permissive_global_values_fall_back_to_their_defaults() throws Exception {
        for (String name : List.of(
                "SERVERFS_DEFAULT_LIST_LIMIT",
                "SERVERFS_MAX_LIST_ENTRIES",
                "SERVERFS_DEFAULT_SEARCH_RESULTS",
                "SERVERFS_MAX_SEARCH_RESULTS",
                "SERVERFS_MAX_WALK_ENTRIES",
                "SERVERFS_SEARCH_TIMEOUT_SECONDS",
                "SERVERFS_SEARCH_MAX_FILE_BYTES",
                "SERVERFS_MAX_EDITS_PER_CALL",
                "SERVERFS_FILE_INGRESS_TIMEOUT_SECONDS",
                "SERVERFS_AGENT_BRIDGE_TIMEOUT_SECONDS")) {
            env.put(name, "-7");
        }
        ServerFsConfig c = load();
        assertEquals(ServerLimits.DEFAULTS, c.limits());
        assertEquals(Duration.ofSeconds(30), c.fileIngress().timeout());
        assertEquals(Duration.ofSeconds(30), c.agent().bridgeTimeout());
    }

    @Test
    void permissive_global_values_are_used_when_valid() throws Exception {
        env.put("SERVERFS_DEFAULT_LIST_LIMIT", "10");
        env.put("SERVERFS_MAX_LIST_ENTRIES", "20");
        env.put("SERVERFS_DEFAULT_SEARCH_RESULTS", "5");
        env.put("SERVERFS_MAX_SEARCH_RESULTS", "6");
        env.put("SERVERFS_MAX_WALK_ENTRIES", "1000");
        env.put("SERVERFS_SEARCH_TIMEOUT_SECONDS", "1.5");
        env.put("SERVERFS_SEARCH_MAX_FILE_BYTES", "4096");
        env.put("SERVERFS_MAX_EDITS_PER_CALL", "3");
        env.put("SERVERFS_FILE_INGRESS_TIMEOUT_SECONDS", "0.25");
        env.put("SERVERFS_AGENT_BRIDGE_TIMEOUT_SECONDS", "12");
        ServerFsConfig c = load();
        assertEquals(new ServerLimits(10, 20, 5, 6, 1000, Duration.ofMillis(1500), 4096, 3), c.limits());
        assertEquals(Duration.ofMillis(250), c.fileIngress().timeout());
        assertEquals(Duration.ofSeconds(12), c.agent().bridgeTimeout());
    }

    @Test
    void network_settings_are_parsed_and_validated() throws Exception {
        env.put("SERVERFS_HOST", "0.0.0.0");
        env.put("SERVERFS_PORT", "8443");
        env.put("SERVERFS_ALLOWED_HOSTS", "serverfs-mcp:8000, example.test:443,");
        env.put("SERVERFS_ALLOWED_ORIGINS", "https://chatgpt.com");
        env.put("SERVERFS_AUTH_TOKEN", "s3cret-token");
        ServerFsConfig.Network n = load().network();
        assertEquals("0.0.0.0", n.host());
        assertEquals(8443, n.port());
        assertEquals(Set.of("serverfs-mcp:8000", "example.test:443"), n.allowedHosts());
        assertEquals(Set.of("https://chatgpt.com"), n.allowedOrigins());
        assertEquals(Optional.of("s3cret-token"), n.authToken());
        assertFalse(n.toString().contains("s3cret-token"));
    }

    @Test
    void transport_bounds_default_and_are_strict() throws Exception {
        ServerFsConfig.Network defaults = load().network();
        assertEquals(Optional.empty(), defaults.maxConnections());
        assertEquals(Duration.ofSeconds(60), defaults.bodyTimeout());
        assertEquals(1024, defaults.bodyMinBytesPerSecond());
        env.put("SERVERFS_MAX_CONNECTIONS", "300");
        env.put("SERVERFS_REQUEST_BODY_TIMEOUT_SECONDS", "2.5");
        env.put("SERVERFS_REQUEST_BODY_MIN_BYTES_PER_SECOND", "10");
        ServerFsConfig.Network set = load().network();
        assertEquals(Optional.of(300), set.maxConnections());
        assertEquals(Duration.ofMillis(2500), set.bodyTimeout());
        assertEquals(10, set.bodyMinBytesPerSecond());
        env.put("SERVERFS_MAX_CONNECTIONS", "0");
        assertThrows(ConfigurationException.class, this::load);
        env.put("SERVERFS_MAX_CONNECTIONS", "300");
        env.put("SERVERFS_REQUEST_BODY_TIMEOUT_SECONDS", "forever");
        assertThrows(ConfigurationException.class, this::load);
    }

    @Test
    void metrics_are_off_by_default_and_a_non_loopback_listener_needs_the_token() throws Exception {
        ServerFsConfig.Network off = load().network();
        assertEquals(Optional.empty(), off.metricsPort());
        assertEquals("127.0.0.1", off.metricsHost());
        env.put("SERVERFS_METRICS_PORT", "9464");
        ServerFsConfig.Network loopback = load().network();
        assertEquals(Optional.of(9464), loopback.metricsPort());
        assertEquals(Optional.empty(), loopback.metricsToken());
        for (String notLoopback : List.of("0.0.0.0", "127.example.com", "127.0.0.1.example.com", "10.0.0.1")) {
            env.put("SERVERFS_METRICS_HOST", notLoopback);
            assertRejected("SERVERFS_METRICS_HOST is not a loopback address, so SERVERFS_AUTH_TOKEN must be set");
        }
        env.put("SERVERFS_METRICS_HOST", "127.0.0.2");
        assertEquals(Optional.empty(), load().network().metricsToken());
        env.put("SERVERFS_METRICS_HOST", "0.0.0.0");
        env.put("SERVERFS_AUTH_TOKEN", "s3cret-token");
        assertEquals(Optional.of("s3cret-token"), load().network().metricsToken());
        env.put("SERVERFS_METRICS_PORT", "0");
        assertRejected("SERVERFS_METRICS_PORT must be an integer from 1 to 65535");
        env.put("SERVERFS_METRICS_PORT", "9464");
        env.put("SERVERFS_METRICS_HOST", "a b");
        assertRejected("SERVERFS_METRICS_HOST must be an IP address or host name");
    }

    @Test
    void the_metrics_listener_cannot_share_the_mcp_listeners_port_and_address() throws Exception {
        String refused =
                "SERVERFS_METRICS_PORT is SERVERFS_PORT on the same address; the metrics need a port of their own";
        env.put("SERVERFS_PORT", "8000");
        env.put("SERVERFS_METRICS_PORT", "8000");
        assertRejected(refused);
        env.put("SERVERFS_AUTH_TOKEN", "s3cret-token");
        for (String[] hosts : new String[][] {{"127.0.0.1", "0.0.0.0"}, {"0.0.0.0", "127.0.0.1"}, {"::", "::1"}}) {
            env.put("SERVERFS_HOST", hosts[0]);
            env.put("SERVERFS_METRICS_HOST", hosts[1]);
            assertRejected(refused);
        }
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_METRICS_HOST", "127.0.0.2"); // two addresses: two listeners on one port
        assertEquals(Optional.of(8000), load().network().metricsPort());
        env.put("SERVERFS_METRICS_HOST", "127.0.0.1");
        env.put("SERVERFS_METRICS_PORT", "8001");
        assertEquals(Optional.of(8001), load().network().metricsPort());
    }

    @Test
    void port_must_be_1_to_65535() throws Exception {
        for (String bad : List.of("0", "65536", "-1", "http", "80.5")) {
            env.put("SERVERFS_PORT", bad);
            assertRejected("SERVERFS_PORT must be an integer from 1 to 65535");
        }
        env.put("SERVERFS_PORT", "65535");
        assertEquals(65535, load().network().port());
    }

    @Test
    void allow_lists_reject_wildcards_and_spaces() {
        env.put("SERVERFS_ALLOWED_HOSTS", "serverfs-mcp:8000,*");
        assertRejected("SERVERFS_ALLOWED_HOSTS must list exact values; wildcards ('*') are not allowed");
        env.clear();
        env.put("SERVERFS_ALLOWED_HOSTS", "*.example.test:8000");
        assertRejected("SERVERFS_ALLOWED_HOSTS must list exact values; wildcards ('*') are not allowed");
        env.clear();
        env.put("SERVERFS_ALLOWED_ORIGINS", "*");
        assertRejected("SERVERFS_ALLOWED_ORIGINS must list exact values; wildcards ('*') are not allowed");
        env.clear();
        env.put("SERVERFS_ALLOWED_ORIGINS", "https://a.test https://b.test");
        assertRejected("SERVERFS_ALLOWED_ORIGINS entries must not contain spaces");
    }

    @Test
    void host_and_token_shapes_are_checked_without_echoing_the_token() {
        env.put("SERVERFS_HOST", "*");
        assertRejected("SERVERFS_HOST must be an IP address or host name");
        env.clear();
        env.put("SERVERFS_AUTH_TOKEN", "two words");
        assertRejected("SERVERFS_AUTH_TOKEN must be printable ASCII without spaces");
    }

    @Test
    void file_ingress_url_can_be_overridden_for_single_host_installs() throws Exception {
        env.put("SERVERFS_FILE_INGRESS_ENABLED", "true");
        env.put("SERVERFS_FILE_INGRESS_URL", "http://127.0.0.1:8081/fetch");
        ServerFsConfig.FileIngress f = load().fileIngress();
        assertTrue(f.enabled());
        assertEquals("http://127.0.0.1:8081/fetch", f.sidecarUrl());
        assertFalse(f.toString().contains("127.0.0.1"));
        for (String bad : List.of(
                "ftp://host/fetch",
                "127.0.0.1:8081/fetch",
                "http://user:pw@host/fetch",
                "http://h/f?x=1",
                "http://h/f#frag",
                "http:// bad")) {
            env.put("SERVERFS_FILE_INGRESS_URL", bad);
            ConfigurationException e = assertThrows(ConfigurationException.class, this::load);
            assertEquals(
                    "SERVERFS_FILE_INGRESS_URL must be an http:// or https:// URL with a host and path,"
                            + " without user info, query or fragment",
                    e.reason(),
                    bad);
        }
    }

    // ---- workdir slots ---------------------------------------------------------------------------------

    @Test
    void alias_without_path_is_rejected() {
        env.put("WORKDIR_03_ALIAS", "docs");
        assertRejected("WORKDIR_03_ALIAS is set but WORKDIR_03_PATH is empty");
    }

    @Test
    void path_without_alias_is_rejected() {
        env.put("WORKDIR_01_PATH", docs.toString());
        assertRejected("WORKDIR_01_PATH is set but WORKDIR_01_ALIAS is empty");
    }

    @Test
    void a_placeholder_directory_with_the_sentinel_and_no_alias_is_a_disabled_slot() throws Exception {
        Path empty = Files.createDirectory(tmp.resolve(".empty"));
        Files.createFile(empty.resolve(".serverfs-disabled"));
        env.put("WORKDIR_01_PATH", empty.toString());
        docsWorkdirIn(2);
        ServerFsConfig c = load();
        assertEquals(1, c.workdirs().all().size());
        assertEquals(2, c.workdirs().all().getFirst().slot());
    }

    private void docsWorkdirIn(int slot) {
        env.put("WORKDIR_0" + slot + "_ALIAS", "docs");
        env.put("WORKDIR_0" + slot + "_PATH", docs.toString());
    }

    @Test
    void an_alias_on_a_placeholder_directory_is_rejected() throws Exception {
        Files.createFile(docs.resolve(".serverfs-disabled"));
        docsWorkdir();
        assertRejected("WORKDIR_01_ALIAS is set but WORKDIR_01_PATH contains the reserved file"
                + " .serverfs-disabled (a disabled-slot placeholder)");
    }

    @Test
    void a_real_directory_that_contains_the_sentinel_is_rejected() throws Exception {
        Files.writeString(docs.resolve("notes.txt"), "x");
        Files.createDirectory(docs.resolve(".serverfs-disabled"));
        docsWorkdir();
        assertRejected("WORKDIR_01_ALIAS is set but WORKDIR_01_PATH contains the reserved file"
                + " .serverfs-disabled (a disabled-slot placeholder)");
    }

    @Test
    void the_path_must_exist_and_is_never_created() {
        Path missing = tmp.resolve("missing");
        env.put("WORKDIR_01_ALIAS", "docs");
        env.put("WORKDIR_01_PATH", missing.toString());
        assertRejected("WORKDIR_01_PATH does not exist (it is never created automatically)");
        assertFalse(Files.exists(missing));
    }

    @Test
    void the_path_must_be_a_directory() throws Exception {
        Path file = Files.writeString(tmp.resolve("file.txt"), "x");
        env.put("WORKDIR_01_ALIAS", "docs");
        env.put("WORKDIR_01_PATH", file.toString());
        assertRejected("WORKDIR_01_PATH is not a directory");
    }

    @Test
    void a_symlinked_path_resolves_to_its_real_directory() throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("link"), docs);
        env.put("WORKDIR_01_ALIAS", "docs");
        env.put("WORKDIR_01_PATH", link.toString());
        assertEquals(docs.toRealPath(), load().workdirs().require("docs").root());
    }

    @Test
    void aliases_must_match_the_pattern() {
        for (String bad : List.of("1docs", "_docs", "my docs", "docs!", "a".repeat(33), "dôcs", "-x")) {
            env.put("WORKDIR_01_ALIAS", bad);
            env.put("WORKDIR_01_PATH", docs.toString());
            assertRejected("WORKDIR_01_ALIAS must match ^[A-Za-z][A-Za-z0-9_-]{0,31}$");
        }
    }

    @Test
    void aliases_are_unique_and_case_sensitive() throws Exception {
        docsWorkdir();
        env.put("WORKDIR_02_ALIAS", "Docs");
        env.put("WORKDIR_02_PATH", scratch.toString());
        env.put("WORKDIR_16_ALIAS", "a".repeat(32));
        env.put("WORKDIR_16_PATH", scratch.toString());
        assertEquals(3, load().workdirs().all().size());
        env.put("WORKDIR_02_ALIAS", "docs");
        assertRejected("WORKDIR_02_ALIAS duplicates the alias of WORKDIR_01_ALIAS ('docs')");
    }

    @Test
    void slot_numbers_are_two_digits_from_01_to_16() {
        for (String name : List.of("WORKDIR_17_ALIAS", "WORKDIR_1_ALIAS", "WORKDIR_00_PATH", "WORKDIR_001_ALIAS")) {
            env.clear();
            env.put(name, "docs");
            assertRejected(name + ": workdir slots are numbered with two digits from 01 to 16"
                    + " (WORKDIR_01_ .. WORKDIR_16_)");
        }
    }

    @Test
    void a_malformed_workdir_variable_name_is_rejected() throws Exception {
        for (String name : List.of("WORKDIR01_ALIAS", "WORKDIR_01ALIAS", "WORKDIR1_EXTRA_DENY_GLOBS")) {
            env.clear();
            env.put(name, "x");
            assertRejected(name + ": workdir variables are named WORKDIR_NN_<SETTING>, for example WORKDIR_01_ALIAS");
        }
        env.clear();
        env.put("WORKDIR", "unrelated");
        env.put("WORKDIR_ROOT", "unrelated");
        assertEquals(0, load().workdirs().all().size());
    }

    @Test
    void an_unknown_slot_variable_is_a_typo_and_rejected() throws Exception {
        docsWorkdir();
        env.put("WORKDIR_01_EXTRA_DENY_GLOB", "*.key");
        assertRejected("unknown variable WORKDIR_01_EXTRA_DENY_GLOB");
        env.put("WORKDIR_01_EXTRA_DENY_GLOB", "");
        assertEquals(1, load().workdirs().all().size());
    }

    @Test
    void a_near_miss_of_a_known_serverfs_variable_is_a_typo_and_rejected() throws Exception {
        env.put("SERVERFS_EXTRA_DENY_GLOB", "*.key");
        assertRejected("unknown variable SERVERFS_EXTRA_DENY_GLOB (did you mean SERVERFS_EXTRA_DENY_GLOBS?)");
        env.clear();
        env.put("SERVERFS_ALOW_HIDDEN", "false");
        assertRejected("unknown variable SERVERFS_ALOW_HIDDEN (did you mean SERVERFS_ALLOW_HIDDEN?)");
        env.clear();
        env.put("SERVERFS_AGENT_RUNTIME", "codex");
        assertRejected("unknown variable SERVERFS_AGENT_RUNTIME (did you mean SERVERFS_AGENT_RUNTIMES?)");
        env.clear();
        // Other roles' variables, far-off names and empty near misses are left alone.
        env.put("SERVERFS_CODEX_BIN", "codex");
        env.put("SERVERFS_UID", "1000");
        env.put("SERVERFS_GID", "1000");
        env.put("SERVERFS_SOMETHING_ELSE_ENTIRELY", "x");
        env.put("SERVERFS_EXTRA_DENY_GLOB", "");
        assertEquals(0, load().workdirs().all().size());
    }

    @Test
    void a_disabled_slot_may_not_be_writable_agent_enabled_or_binary() throws Exception {
        env.put("WORKDIR_05_READ_ONLY", "false");
        assertRejected("WORKDIR_05_READ_ONLY=false on a disabled slot (WORKDIR_05_ALIAS is empty)");
        env.clear();
        env.put("WORKDIR_05_AGENT_MODE", "review");
        assertRejected("WORKDIR_05_AGENT_MODE is set on a disabled slot (WORKDIR_05_ALIAS is empty)");
        env.clear();
        env.put("WORKDIR_05_AGENT_RUNTIMES", "codex");
        assertRejected("WORKDIR_05_AGENT_RUNTIMES is set on a disabled slot (WORKDIR_05_ALIAS is empty)");
        env.clear();
        env.put("WORKDIR_05_BINARY_TRANSFER_ENABLED", "true");
        assertRejected("WORKDIR_05_BINARY_TRANSFER_ENABLED=true on a disabled slot (WORKDIR_05_ALIAS is empty)");
        env.clear();
        env.put("WORKDIR_05_READ_ONLY", "true");
        env.put("WORKDIR_05_AGENT_MODE", "disabled");
        env.put("WORKDIR_05_BINARY_TRANSFER_ENABLED", "false");
        env.put("WORKDIR_05_DESCRIPTION", "unused");
        assertEquals(0, load().workdirs().all().size());
    }

    @Test
    void the_placeholder_slot_obeys_the_disabled_slot_rules_too() throws Exception {
        Path empty = Files.createDirectory(tmp.resolve(".empty"));
        Files.createFile(empty.resolve(".serverfs-disabled"));
        env.put("WORKDIR_01_PATH", empty.toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        assertRejected("WORKDIR_01_READ_ONLY=false on a disabled slot (WORKDIR_01_ALIAS is empty)");
    }

    // ---- policy overrides ------------------------------------------------------------------------------

    @Test
    void overrides_inherit_the_globals_and_explicit_values_win() throws Exception {
        env.put("SERVERFS_ALLOW_HIDDEN", "true");
        env.put("SERVERFS_MAX_READ_BYTES", "1000");
        env.put("SERVERFS_MAX_READ_LINES", "10");
        env.put("SERVERFS_MAX_WRITE_BYTES", "2000");
        env.put("SERVERFS_BINARY_TRANSFER_ENABLED", "true");
        env.put("SERVERFS_MAX_BINARY_TRANSFER_BYTES", "3000");
        docsWorkdir();
        scratchWorkdir();
        env.put("WORKDIR_02_ALLOW_HIDDEN", "false");
        env.put("WORKDIR_02_DISABLE_DEFAULT_DENY", "true");
        env.put("WORKDIR_02_MAX_READ_BYTES", "11");
        env.put("WORKDIR_02_MAX_READ_LINES", "12");
        env.put("WORKDIR_02_MAX_WRITE_BYTES", "13");
        env.put("WORKDIR_02_BINARY_TRANSFER_ENABLED", "false");
        env.put("WORKDIR_02_MAX_BINARY_TRANSFER_BYTES", "14");
        ServerFsConfig c = load();
        WorkdirPolicy inherited = c.workdirs().require("docs").policy();
        assertTrue(inherited.allowHidden());
        assertFalse(inherited.disableDefaultDeny());
        assertEquals(1000, inherited.maxReadBytes());
        assertEquals(10, inherited.maxReadLines());
        assertEquals(2000, inherited.maxWriteBytes());
        assertTrue(inherited.binaryTransferEnabled());
        assertEquals(3000, inherited.maxBinaryTransferBytes());
        WorkdirPolicy overridden = c.workdirs().require("scratch").policy();
        assertFalse(overridden.allowHidden());
        assertTrue(overridden.disableDefaultDeny());
        assertEquals(11, overridden.maxReadBytes());
        assertEquals(12, overridden.maxReadLines());
        assertEquals(13, overridden.maxWriteBytes());
        assertFalse(overridden.binaryTransferEnabled());
        assertEquals(14, overridden.maxBinaryTransferBytes());
        assertEquals(new ServerFsConfig.PolicySummary(true, true, 0, 1), c.policySummary());
    }

    @Test
    void workdir_overrides_are_strict() {
        docsWorkdir();
        env.put("WORKDIR_01_ALLOW_HIDDEN", "hidden");
        assertRejected("WORKDIR_01_ALLOW_HIDDEN must be true or false");
        env.remove("WORKDIR_01_ALLOW_HIDDEN");
        env.put("WORKDIR_01_MAX_WRITE_BYTES", "0");
        assertRejected("WORKDIR_01_MAX_WRITE_BYTES must be a positive integer");
        env.remove("WORKDIR_01_MAX_WRITE_BYTES");
        env.put("WORKDIR_01_MAX_BINARY_TRANSFER_BYTES", "lots");
        assertRejected("WORKDIR_01_MAX_BINARY_TRANSFER_BYTES must be a positive integer");
    }

    @Test
    void extra_deny_globs_are_the_union_of_global_and_workdir_globs() throws Exception {
        env.put("SERVERFS_EXTRA_DENY_GLOBS", "*.key, secrets/**,,");
        docsWorkdir();
        scratchWorkdir();
        env.put("WORKDIR_02_EXTRA_DENY_GLOBS", "*.pem,*.key");
        ServerFsConfig c = load();
        assertEquals(
                List.of("*.key", "secrets/**"),
                c.workdirs().require("docs").policy().extraDenyGlobs());
        assertEquals(
                List.of("*.key", "secrets/**", "*.pem"),
                c.workdirs().require("scratch").policy().extraDenyGlobs());
        assertEquals(2, c.policySummary().globalExtraDenyRuleCount());
        assertEquals(1, c.policySummary().workdirsWithPolicyOverrides());
    }

    // ---- agent modes and runtimes ---------------------------------------------------------------------

    @Test
    void agent_mode_must_be_one_of_the_three_names() {
        env.put("SERVERFS_AGENT_MODE", "write");
        assertRejected("SERVERFS_AGENT_MODE must be disabled, review or workspace-write");
        env.clear();
        docsWorkdir();
        env.put("WORKDIR_01_AGENT_MODE", "workspace_write");
        assertRejected("WORKDIR_01_AGENT_MODE must be disabled, review or workspace-write");
    }

    @Test
    void global_mode_and_runtimes_are_set_together() {
        env.put("SERVERFS_AGENT_RUNTIMES", "codex");
        assertRejected("SERVERFS_AGENT_RUNTIMES is set but SERVERFS_AGENT_MODE is disabled (set both or neither)");
        env.clear();
        env.put("SERVERFS_AGENT_MODE", "review");
        assertRejected("SERVERFS_AGENT_MODE is review but SERVERFS_AGENT_RUNTIMES is empty (set both or neither)");
    }

    @Test
    void runtimes_must_be_known_and_listed_once() {
        env.put("SERVERFS_AGENT_MODE", "workspace-write");
        // "codex, claude" in this build: AgentRuntimeCatalogueTest pins the production runtimes and their order.
        String allowed = String.join(", ", AgentRuntimeCatalogue.offered(false));
        env.put("SERVERFS_AGENT_RUNTIMES", "codex,qoder");
        assertRejected("SERVERFS_AGENT_RUNTIMES: unknown runtime 'qoder' (allowed: " + allowed + ")");
        env.put("SERVERFS_AGENT_RUNTIMES", "/usr/bin/codex");
        assertRejected("SERVERFS_AGENT_RUNTIMES: unknown runtime (allowed: " + allowed + ")");
        env.put("SERVERFS_AGENT_RUNTIMES", "codex, claude ,codex");
        assertRejected("SERVERFS_AGENT_RUNTIMES lists runtime codex more than once");
        env.put("SERVERFS_AGENT_RUNTIMES", "fake");
        assertRejected("SERVERFS_AGENT_RUNTIMES: runtime fake needs SERVERFS_AGENT_ENABLE_FAKE_RUNTIME=true"
                + " (tests only)");
    }

    @Test
    void an_agent_enabled_workdir_is_refused_while_the_bridge_is_disabled() {
        scratchWorkdir();
        env.put("WORKDIR_02_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_02_AGENT_RUNTIMES", "codex");
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "nope");
        assertRejected("WORKDIR_02_AGENT_MODE is workspace-write for workdir 'scratch' but"
                + " SERVERFS_AGENT_BRIDGE_ENABLED is not true");
    }

    @Test
    void a_writable_workdir_with_codex_and_claude_is_accepted() throws Exception {
        bridge();
        docsWorkdir();
        scratchWorkdir();
        env.put("WORKDIR_02_AGENT_MODE", "Workspace-Write");
        env.put("WORKDIR_02_AGENT_RUNTIMES", "claude,codex");
        ServerFsConfig c = load();
        WorkdirPolicy p = c.workdirs().require("scratch").policy();
        assertEquals(AgentMode.WORKSPACE_WRITE, p.agentMode());
        assertEquals(Set.of("claude", "codex"), p.agentRuntimes());
        assertEquals(AgentMode.DISABLED, c.workdirs().require("docs").policy().agentMode());
        assertEquals(List.of("claude", "codex"), c.agent().enabledRuntimes());
        assertTrue(c.workdirs().anyAgentEnabled());
    }

    @Test
    void workspace_write_needs_a_read_write_workdir() {
        bridge();
        docsWorkdir();
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "codex");
        assertRejected("WORKDIR_01_AGENT_MODE is workspace-write but the workdir is read-only (WORKDIR_01_READ_ONLY)");
    }

    @Test
    void codex_and_claude_may_review_a_read_only_workdir() throws Exception {
        bridge();
        docsWorkdir();
        env.put("WORKDIR_01_AGENT_MODE", "review");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "codex,claude");
        ServerFsConfig c = load();
        assertEquals(AgentMode.REVIEW, c.workdirs().require("docs").policy().agentMode());
        assertEquals(
                Set.of("claude", "codex"), c.workdirs().require("docs").policy().agentRuntimes());
    }

    @Test
    void runtimes_without_an_enabled_mode_and_a_mode_without_runtimes_are_rejected() {
        bridge();
        scratchWorkdir();
        env.put("WORKDIR_02_AGENT_RUNTIMES", "codex");
        assertRejected("WORKDIR_02_AGENT_RUNTIMES: agent runtimes need an enabled agent mode"
                + " (WORKDIR_02_AGENT_MODE or SERVERFS_AGENT_MODE)");
        env.remove("WORKDIR_02_AGENT_RUNTIMES");
        env.put("WORKDIR_02_AGENT_MODE", "workspace-write");
        assertRejected("WORKDIR_02_AGENT_MODE is workspace-write but no agent runtime is allowed"
                + " (WORKDIR_02_AGENT_RUNTIMES or SERVERFS_AGENT_RUNTIMES)");
    }

    @Test
    void workdirs_inherit_the_global_agent_mode_and_an_explicit_disabled_resets_the_runtimes() throws Exception {
        bridge();
        env.put("SERVERFS_AGENT_MODE", "workspace-write");
        env.put("SERVERFS_AGENT_RUNTIMES", "codex");
        docsWorkdir();
        scratchWorkdir();
        assertRejected("WORKDIR_01_AGENT_MODE is workspace-write but the workdir is read-only (WORKDIR_01_READ_ONLY)");
        env.put("WORKDIR_01_AGENT_MODE", "disabled");
        ServerFsConfig c = load();
        assertEquals(AgentMode.DISABLED, c.workdirs().require("docs").policy().agentMode());
        assertEquals(Set.of(), c.workdirs().require("docs").policy().agentRuntimes());
        assertEquals(
                AgentMode.WORKSPACE_WRITE,
                c.workdirs().require("scratch").policy().agentMode());
        assertEquals(Set.of("codex"), c.workdirs().require("scratch").policy().agentRuntimes());
    }

    @Test
    void the_fake_runtime_is_accepted_only_when_enabled_and_works_in_review() throws Exception {
        bridge();
        docsWorkdir();
        env.put("WORKDIR_01_AGENT_MODE", "review");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "fake");
        assertRejected("WORKDIR_01_AGENT_RUNTIMES: runtime fake needs SERVERFS_AGENT_ENABLE_FAKE_RUNTIME=true"
                + " (tests only)");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        ServerFsConfig c = load();
        assertTrue(c.agent().fakeRuntimeEnabled());
        assertEquals(List.of("fake"), c.agent().enabledRuntimes());
    }

    @Test
    void the_lock_dir_and_socket_must_be_absolute_when_the_bridge_is_enabled() throws Exception {
        env.put("SERVERFS_AGENT_LOCK_DIR", "run/locks");
        assertEquals(Path.of("run/locks"), load().agent().lockDir());
        bridge();
        assertRejected("SERVERFS_AGENT_LOCK_DIR must be an absolute path");
        env.put("SERVERFS_AGENT_LOCK_DIR", tmp.resolve("locks").toString());
        env.put("SERVERFS_AGENT_BRIDGE_SOCKET", "bridge.sock");
        assertRejected("SERVERFS_AGENT_BRIDGE_SOCKET must be an absolute path");
        env.put("SERVERFS_AGENT_BRIDGE_SOCKET", tmp.resolve("bridge.sock").toString());
        ServerFsConfig.Agent a = load().agent();
        assertEquals(tmp.resolve("locks"), a.lockDir());
        assertEquals(tmp.resolve("bridge.sock"), a.bridgeSocket());
    }

    @Test
    void embedded_mode_needs_the_agent_master_switch_and_the_state_dir_is_absolute() throws Exception {
        env.put("SERVERFS_AGENT_EMBEDDED", "true");
        assertRejected(
                "SERVERFS_AGENT_EMBEDDED=true needs SERVERFS_AGENT_BRIDGE_ENABLED=true (the Agent master" + " switch)");
        bridge();
        assertRejected(
                "SERVERFS_AGENT_EMBEDDED=true needs SERVERFS_AGENT_BRIDGE_STATE_DIR (where the task store lives)");
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", "state");
        assertRejected("SERVERFS_AGENT_BRIDGE_STATE_DIR must be an absolute path");
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", tmp.toString());
        ServerFsConfig.Agent a = load().agent();
        assertTrue(a.embedded());
        assertEquals(Optional.of(tmp), a.stateDir());
    }

    @Test
    void the_egress_allow_list_takes_host_port_entries_only() throws Exception {
        bridge();
        assertEquals(List.of(), load().agent().sandbox().egressAllow());
        env.put("SERVERFS_AGENT_EGRESS_ALLOW", "gw.internal:8443, [::1]:8000,127.0.0.1:11434");
        assertEquals(
                List.of("gw.internal:8443", "[::1]:8000", "127.0.0.1:11434"),
                load().agent().sandbox().egressAllow());
        for (String bad : List.of("gw.internal", "http://gw:80", "gw:0", "gw:70000", "::1:80", "gw:80/x")) {
            env.put("SERVERFS_AGENT_EGRESS_ALLOW", bad);
            assertRejected("SERVERFS_AGENT_EGRESS_ALLOW must list host:port entries");
        }
    }

    private AgentRuntimeDescriptor.Values claude() throws ConfigurationException {
        return load().agent().runtimeSettings().get(RuntimeName.of("claude"));
    }

    private AgentRuntimeDescriptor.Values codex() throws ConfigurationException {
        return load().agent().runtimeSettings().get(RuntimeName.of("codex"));
    }

    @Test
    void claude_runs_claude_on_path_unless_a_binary_is_named_and_its_probe_timeout_is_strict() throws Exception {
        assertEquals("claude", claude().program("SERVERFS_AGENT_CLAUDE_BIN"));
        assertEquals(5, claude().positiveInt("SERVERFS_CLAUDE_PROBE_TIMEOUT_SECONDS"));
        env.put("SERVERFS_CLAUDE_BIN", "/opt/reference/claude");
        assertEquals(
                "/opt/reference/claude", claude().program("SERVERFS_AGENT_CLAUDE_BIN"), "the reference name is read");
        env.put("SERVERFS_AGENT_CLAUDE_BIN", "/opt/claude/bin/claude");
        assertEquals("/opt/claude/bin/claude", claude().program("SERVERFS_AGENT_CLAUDE_BIN"), "the new name wins");
        env.put("SERVERFS_CLAUDE_PROBE_TIMEOUT_SECONDS", "2");
        assertEquals(2, claude().positiveInt("SERVERFS_CLAUDE_PROBE_TIMEOUT_SECONDS"));
        env.put("SERVERFS_CLAUDE_PROBE_TIMEOUT_SECONDS", "0");
        assertThrows(ConfigurationException.class, this::load);
        assertFalse(load_or_reason().contains("/opt"), "no path in the reason");
    }

    @Test
    void codex_runs_codex_on_path_unless_a_binary_is_named_with_an_optional_home_and_a_strict_timeout()
            throws Exception {
        assertEquals("codex", codex().program("SERVERFS_AGENT_CODEX_BIN"));
        assertEquals(Optional.empty(), codex().absolutePath("SERVERFS_CODEX_HOME"));
        assertEquals(10, codex().positiveInt("SERVERFS_CODEX_REQUEST_TIMEOUT_SECONDS"));
        env.put("SERVERFS_CODEX_BIN", "/opt/reference/codex");
        assertEquals("/opt/reference/codex", codex().program("SERVERFS_AGENT_CODEX_BIN"), "the reference name is read");
        env.put("SERVERFS_AGENT_CODEX_BIN", "/opt/codex/bin/codex");
        assertEquals("/opt/codex/bin/codex", codex().program("SERVERFS_AGENT_CODEX_BIN"), "the new name wins");
        env.put("SERVERFS_CODEX_HOME", tmp.toString());
        assertEquals(Optional.of(tmp), codex().absolutePath("SERVERFS_CODEX_HOME"));
        env.put("SERVERFS_CODEX_REQUEST_TIMEOUT_SECONDS", "3");
        assertEquals(3, codex().positiveInt("SERVERFS_CODEX_REQUEST_TIMEOUT_SECONDS"));
        env.put("SERVERFS_CODEX_REQUEST_TIMEOUT_SECONDS", "0");
        assertThrows(ConfigurationException.class, this::load);
        env.put("SERVERFS_CODEX_REQUEST_TIMEOUT_SECONDS", "10");
        env.put("SERVERFS_CODEX_HOME", "relative/home");
        assertEquals("SERVERFS_CODEX_HOME must be an absolute path", load_or_reason());
    }

    private String load_or_reason() {
        try {
            load();
            return "";
        } catch (ConfigurationException e) {
            return e.reason();
        }
    }

    @Test
    void lifecycle_limits_are_read_as_strict_positive_integers() throws Exception {
        env.put("SERVERFS_AGENT_TASK_TIMEOUT_SECONDS", "60");
        env.put("SERVERFS_AGENT_INTERACTION_TIMEOUT_SECONDS", "30");
        env.put("SERVERFS_AGENT_MAX_ACTIVE_TASKS", "1");
        env.put("SERVERFS_AGENT_TASK_RETENTION_HOURS", "2");
        ServerFsConfig.Agent a = load().agent();
        assertEquals(Duration.ofSeconds(60), a.taskTimeout());
        assertEquals(Duration.ofSeconds(30), a.interactionTimeout());
        assertEquals(1, a.maxActiveTasks());
        assertEquals(Duration.ofSeconds(7200), a.retention());
    }

    @Test
    void the_bridge_switch_is_a_permissive_bool() throws Exception {
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "YES");
        assertTrue(load().agent().bridgeEnabled());
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "enabled");
        assertFalse(load().agent().bridgeEnabled());
    }

    @Test
    void the_configuration_can_be_printed_without_paths_secrets_or_urls() throws Exception {
        docsWorkdir();
        bridge();
        env.put("SERVERFS_AUTH_TOKEN", "tok-0a1b2c3d");
        env.put("SERVERFS_FILE_INGRESS_URL", "http://ingress.internal.test:8081/fetch");
        env.put("SERVERFS_AGENT_LOCK_DIR", tmp.resolve("locks").toString());
        env.put("SERVERFS_AGENT_BRIDGE_SOCKET", tmp.resolve("bridge.sock").toString());
        String printed = load().toString();
        assertTrue(printed.contains("alias=docs"), printed);
        for (String hidden : List.of(tmp.toString(), "tok-0a1b2c3d", "ingress.internal.test")) {
            assertFalse(printed.contains(hidden), hidden + " in " + printed);
        }
    }

    // ---- .env file -------------------------------------------------------------------------------------

    @Test
    void relative_paths_in_the_env_file_resolve_against_the_file_directory() throws Exception {
        Path conf = Files.createDirectory(tmp.resolve("conf"));
        Path file = Files.writeString(
                conf.resolve("serverfs.env"),
                "WORKDIR_01_ALIAS=docs\nWORKDIR_01_PATH=../docs\nexport WORKDIR_02_ALIAS=scratch\n"
                        + "WORKDIR_02_PATH=\"../scratch\"  # a comment\n");
        ServerFsConfig c = ConfigLoader.load(Map.of(), Optional.of(file));
        assertEquals(docs.toRealPath(), c.workdirs().require("docs").root());
        assertEquals(scratch.toRealPath(), c.workdirs().require("scratch").root());
    }

    @Test
    void the_process_environment_wins_over_the_env_file_even_when_empty() throws Exception {
        Path file = Files.writeString(
                tmp.resolve(".env"),
                "WORKDIR_01_ALIAS=docs\nWORKDIR_01_PATH=docs\nWORKDIR_01_READ_ONLY=false\nSERVERFS_PORT=9000\n"
                        + "SERVERFS_LOG_LEVEL=DEBUG\n");
        env.put("WORKDIR_01_READ_ONLY", "true");
        env.put("SERVERFS_PORT", "9100");
        env.put("SERVERFS_LOG_LEVEL", "");
        ServerFsConfig c = ConfigLoader.load(env, Optional.of(file));
        assertEquals(Access.READ_ONLY, c.workdirs().require("docs").access());
        assertEquals(9100, c.network().port());
        assertEquals("INFO", c.logLevel());
    }

    @Test
    void a_relative_path_from_the_environment_does_not_use_the_env_file_directory() throws Exception {
        Path file = Files.writeString(tmp.resolve(".env"), "WORKDIR_01_ALIAS=docs\n");
        env.put("WORKDIR_01_PATH", "docs-" + tmp.getFileName());
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> ConfigLoader.load(env, Optional.of(file)));
        assertEquals("WORKDIR_01_PATH does not exist (it is never created automatically)", e.reason());
    }

    @Test
    void env_file_errors_surface_as_configuration_errors() throws Exception {
        Path file = Files.writeString(tmp.resolve("bad.env"), "WORKDIR_01_ALIAS=docs\nnot a line\n");
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> ConfigLoader.load(Map.of(), Optional.of(file)));
        assertEquals("env file line 2: expected NAME=value", e.reason());
    }

    @Test
    void the_shipped_example_env_file_loads() throws Exception {
        Path example = Path.of("..", "examples", "local.env");
        ServerFsConfig c = ConfigLoader.load(Map.of(), Optional.of(example));
        assertEquals("127.0.0.1", c.network().host());
        assertEquals(8000, c.network().port());
        assertEquals(Access.READ_ONLY, c.workdirs().require("docs").access());
        assertEquals(Access.READ_WRITE, c.workdirs().require("scratch").access());
        assertEquals(2, c.workdirs().all().size());
        assertTrue(Files.exists(c.workdirs().require("docs").root().resolve("README.md")));
    }
}
