package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.bootstrap.config.ConfigLoader;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Agent enabled without embedded mode and no Bridge listening on the socket: the nine tools
 * are published, submit still runs its MCP-side checks, and everything that needs the Agent service answers
 * {@code AGENT_BRIDGE_UNAVAILABLE}. In-JVM {@link ServeWiring} over real HTTP.
 */
class AgentBridgeUnavailableIT {

    @Test
    void agent_tools_answer_bridge_unavailable_after_the_mcp_side_checks(@TempDir Path dir) throws Exception {
        Path proj = Files.createDirectories(dir.resolve("proj"));
        Files.writeString(proj.resolve("file.txt"), "x");
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_LOCK_DIR", dir.resolve("locks").toString());
        env.put("SERVERFS_AGENT_BRIDGE_SOCKET", dir.resolve("bridge.sock").toString());
        env.put("WORKDIR_01_ALIAS", "proj");
        env.put("WORKDIR_01_PATH", proj.toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "codex");
        env.put("WORKDIR_02_ALIAS", "docs");
        env.put("WORKDIR_02_PATH", Files.createDirectories(dir.resolve("docs")).toString());
        env.put("WORKDIR_02_READ_ONLY", "true");
        env.put("WORKDIR_02_AGENT_MODE", "review");
        env.put("WORKDIR_02_AGENT_RUNTIMES", "codex");
        ServerFsConfig config = ConfigLoader.load(env, Optional.empty());
        try (ServeWiring serving = ServeWiring.start(config)) {
            assertTrue(serving.server().toolNames().contains("cancel_agent_task"));
            McpTestClient mcp = new McpTestClient(serving.server().endpoint());
            Map<String, Object> submit = AgentServeIT.submit("proj", "codex", "do it");
            assertEquals(
                    "AGENT_BRIDGE_UNAVAILABLE",
                    mcp.call("submit_agent_task", submit).code());
            Map<String, Object> onFile = new HashMap<>(submit);
            onFile.put("path", "file.txt");
            assertEquals(
                    "NOT_A_DIRECTORY", mcp.call("submit_agent_task", onFile).code(), "checked before the Bridge");
            assertEquals(
                    "AGENT_PROFILE_NOT_ALLOWED",
                    mcp.call("submit_agent_task", AgentServeIT.submit("docs", "codex", "x", "workspace-write"))
                            .code(),
                    "checked before the Bridge");
            String unknown = "agt_" + "0".repeat(24);
            assertEquals(
                    "AGENT_BRIDGE_UNAVAILABLE",
                    mcp.call("get_agent_task", Map.of("task_id", unknown)).code());
            assertEquals(
                    "AGENT_BRIDGE_UNAVAILABLE",
                    mcp.call("list_agent_runtimes", Map.of()).code());
            assertTrue(mcp.call("list_agent_runtimes", Map.of()).error().endsWith("Agent Bridge is unavailable"));
            assertFalse(Files.exists(dir.resolve("locks")), "nothing embedded was started");
        }
    }
}
