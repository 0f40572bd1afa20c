package dev.serverfs.bootstrap.serve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.domain.task.RecoveryGuard;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * One Codex test's world: its own {@code HOME} and {@code CODEX_HOME} (a {@code config.toml} pointing the {@code
 * mock} provider at this test's {@link MockResponsesApi}, no retries: Codex retries an unreachable endpoint for
 * ever, PROVIDERS.md (f)), a read-write workdir allowing {@code codex}, the state and lock directories, the mock, a
 * real {@code serverfs serve} with the embedded Agent service and an MCP client.
 */
final class CodexWorld implements AutoCloseable {
    final Path home;
    final Path codexHome;
    final Path proj;
    final Path state;
    final Path locks;
    final MockResponsesApi mock;
    final Map<String, String> vars = new HashMap<>();
    ServeProcess serve;
    McpTestClient mcp;
    AgentProbe probe;

    CodexWorld(Path dir, Path bin, MockResponsesApi.Script script, Map<String, String> extra) throws Exception {
        home = Files.createDirectories(dir.resolve("home"));
        codexHome = Files.createDirectories(dir.resolve("codex-home"));
        proj = Files.createDirectories(dir.resolve("proj"));
        state = dir.resolve("state");
        locks = dir.resolve("locks");
        mock = MockResponsesApi.start(script);
        Files.writeString(codexHome.resolve("config.toml"), config(mock.baseUrl(), proj), StandardCharsets.UTF_8);
        vars.put("HOME", home.toString());
        vars.put("CODEX_HOME", codexHome.toString());
        vars.put("OPENAI_API_KEY", "sk-mock-key");
        vars.put("SERVERFS_HOST", "127.0.0.1");
        vars.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        vars.put("SERVERFS_AGENT_EMBEDDED", "true");
        vars.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", state.toString());
        vars.put("SERVERFS_AGENT_LOCK_DIR", locks.toString());
        vars.put("SERVERFS_AGENT_CODEX_BIN", bin.toString());
        vars.put("SERVERFS_AGENT_TASK_TIMEOUT_SECONDS", "120");
        vars.put("WORKDIR_01_ALIAS", "proj");
        vars.put("WORKDIR_01_PATH", proj.toString());
        vars.put("WORKDIR_01_READ_ONLY", "false");
        vars.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        vars.put("WORKDIR_01_AGENT_RUNTIMES", "codex");
        vars.putAll(extra);
        startServe();
    }

    /** PROVIDERS.md (a): the mock provider, no retries, no telemetry, no plugin sync (it would reach the network). */
    static String config(String baseUrl, Path proj) {
        return """
                model = "mock-model"
                model_provider = "mock"

                [model_providers.mock]
                name = "Local mock"
                base_url = "%s"
                wire_api = "responses"
                env_key = "OPENAI_API_KEY"
                request_max_retries = 0
                stream_max_retries = 0
                supports_websockets = false

                [features]
                plugins = false
                apps = false
                remote_plugin = false

                [analytics]
                enabled = false

                [feedback]
                enabled = false

                [projects."%s"]
                trust_level = "trusted"
                """.formatted(baseUrl, proj);
    }

    void startServe() throws Exception {
        vars.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        serve = ServeProcess.start(vars);
        mcp = new McpTestClient(serve.awaitUrl(AgentProbe.WAIT));
        probe = new AgentProbe(mcp, locks);
    }

    String submit(String prompt) throws Exception {
        return submit(prompt, "workspace-write");
    }

    String submit(String prompt, String profile) throws Exception {
        return AgentServeIT.created(
                mcp.call("submit_agent_task", AgentServeIT.submit("proj", "codex", prompt, profile)));
    }

    JsonNode awaitStatus(String id, String status) throws Exception {
        return probe.awaitStatus(id, status);
    }

    JsonNode awaitPending(String id) throws Exception {
        return probe.awaitPending(id);
    }

    RecoveryGuard awaitProvider() throws Exception {
        return probe.awaitProvider(1);
    }

    @Override
    public void close() throws Exception {
        try {
            if (serve != null) {
                serve.close();
            }
        } finally {
            mock.close();
        }
    }
}
