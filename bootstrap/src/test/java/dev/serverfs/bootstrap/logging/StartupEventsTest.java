package dev.serverfs.bootstrap.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.bootstrap.config.ConfigLoader;
import dev.serverfs.bootstrap.config.ConfigurationException;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.bootstrap.launch.ServerFsProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartupEventsTest {

    @Test
    void startup_reports_exactly_the_reference_fields_as_counts_and_flags(@TempDir Path tmp) throws Exception {
        Path docs = Files.createDirectory(tmp.resolve("docs"));
        Path scratch = Files.createDirectory(tmp.resolve("scratch"));
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_EXTRA_DENY_GLOBS", "*.secretglob,*.key");
        env.put("SERVERFS_LOG_LEVEL", "info");
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("WORKDIR_01_ALIAS", "docs");
        env.put("WORKDIR_01_PATH", docs.toString());
        env.put("WORKDIR_02_ALIAS", "scratch");
        env.put("WORKDIR_02_PATH", scratch.toString());
        env.put("WORKDIR_02_READ_ONLY", "false");
        env.put("WORKDIR_02_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_02_AGENT_RUNTIMES", "codex");
        ServerFsConfig config = ConfigLoader.load(env, Optional.empty());
        StdStreams s = StdStreams.capture(() -> {
            StartupEvents.started(config);
            return 0;
        });
        JsonNode line = JsonLogFormatTest.lines(s.err()).getFirst();
        assertEquals(
                List.of(
                        "timestamp",
                        "level",
                        "event",
                        "workdirs",
                        "read_write_workdirs",
                        "log_level",
                        "global_allow_hidden",
                        "global_default_deny_enabled",
                        "global_extra_deny_rule_count",
                        "workdirs_with_policy_overrides",
                        "agent_bridge_enabled",
                        "file_ingress_enabled",
                        "agent_enabled_workdirs"),
                JsonLogFormatTest.fieldNames(line));
        assertEquals("startup", line.get("event").asText());
        assertEquals(2, line.get("workdirs").asInt());
        assertEquals(1, line.get("read_write_workdirs").asInt());
        assertEquals("INFO", line.get("log_level").asText());
        assertFalse(line.get("global_allow_hidden").asBoolean());
        assertEquals(true, line.get("global_default_deny_enabled").asBoolean());
        assertEquals(2, line.get("global_extra_deny_rule_count").asInt());
        assertEquals(1, line.get("workdirs_with_policy_overrides").asInt());
        assertEquals(true, line.get("agent_bridge_enabled").asBoolean());
        assertFalse(line.get("file_ingress_enabled").asBoolean());
        assertEquals(1, line.get("agent_enabled_workdirs").asInt());
        assertFalse(s.err().contains("secretglob"));
        assertFalse(s.err().contains(tmp.toString()));
    }

    @Test
    void a_start_with_no_workdir_warns_after_the_startup_event() throws Exception {
        ServerFsConfig config = ConfigLoader.load(Map.of(), Optional.empty());
        StdStreams s = StdStreams.capture(() -> {
            StartupEvents.started(config);
            return 0;
        });
        List<JsonNode> lines = JsonLogFormatTest.lines(s.err());
        assertEquals(0, lines.getFirst().get("workdirs").asInt());
        assertEquals("no_workdirs", lines.get(1).get("event").asText());
        assertEquals("WARNING", lines.get(1).get("level").asText());
        StdStreams one = StdStreams.capture(() -> {
            StartupEvents.started(ConfigLoader.load(
                    Map.of("WORKDIR_01_ALIAS", "docs", "WORKDIR_01_PATH", System.getProperty("java.io.tmpdir")),
                    Optional.empty()));
            return 0;
        });
        assertFalse(one.err().contains("no_workdirs"), one.err());
    }

    @Test
    void serve_hosting_codex_or_claude_without_a_token_warns_that_they_reach_mcp(@TempDir Path tmp) throws Exception {
        Map<String, String> env = new HashMap<>(Map.of(
                "SERVERFS_AGENT_BRIDGE_ENABLED", "true",
                "SERVERFS_AGENT_EMBEDDED", "true",
                "SERVERFS_AGENT_BRIDGE_STATE_DIR", tmp.resolve("state").toString(),
                "SERVERFS_AGENT_LOCK_DIR", tmp.resolve("locks").toString(),
                "WORKDIR_01_ALIAS", "proj",
                "WORKDIR_01_PATH", tmp.toString(),
                "WORKDIR_01_READ_ONLY", "false",
                "WORKDIR_01_AGENT_MODE", "workspace-write",
                "WORKDIR_01_AGENT_RUNTIMES", "claude"));
        StdStreams warned = StdStreams.capture(() -> {
            StartupEvents.embeddedAgentWithoutToken(ConfigLoader.load(env, Optional.empty()));
            return 0;
        });
        JsonNode line = JsonLogFormatTest.lines(warned.err()).getFirst();
        assertEquals("agent_mcp_without_token", line.get("event").asText());
        assertEquals("WARNING", line.get("level").asText());
        Map<String, String> withToken = new HashMap<>(env);
        withToken.put("SERVERFS_AUTH_TOKEN", "0123456789abcdef0123456789abcdef");
        Map<String, String> fakeOnly = new HashMap<>(env);
        fakeOnly.put("WORKDIR_01_AGENT_RUNTIMES", "fake");
        fakeOnly.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        Map<String, String> bridge = new HashMap<>(env);
        bridge.remove("SERVERFS_AGENT_EMBEDDED");
        bridge.remove("SERVERFS_AGENT_BRIDGE_STATE_DIR");
        for (Map<String, String> quiet : List.of(withToken, fakeOnly, bridge)) {
            StdStreams s = StdStreams.capture(() -> {
                StartupEvents.embeddedAgentWithoutToken(ConfigLoader.load(quiet, Optional.empty()));
                return 0;
            });
            assertEquals("", s.err(), quiet.toString());
        }
    }

    @Test
    void a_configuration_failure_logs_startup_failed_prints_the_stderr_line_and_returns_2() throws Exception {
        StdStreams s = StdStreams.capture(
                () -> StartupEvents.configurationFailed(new ConfigurationException("SERVERFS_PORT is wrong")));
        assertEquals(ServerFsProcess.EXIT_CONFIGURATION_ERROR, s.exitCode());
        assertEquals(2, s.exitCode());
        String[] lines = s.err().split("\n");
        assertEquals(2, lines.length, s.err());
        JsonNode event = JsonLogFormatTest.lines(s.err()).getFirst();
        assertEquals(List.of("timestamp", "level", "event", "reason"), JsonLogFormatTest.fieldNames(event));
        assertEquals("ERROR", event.get("level").asText());
        assertEquals("startup_failed", event.get("event").asText());
        assertEquals("SERVERFS_PORT is wrong", event.get("reason").asText());
        assertEquals("ServerFS: configuration error: SERVERFS_PORT is wrong", lines[1]);
        assertEquals("", s.out());
    }
}
