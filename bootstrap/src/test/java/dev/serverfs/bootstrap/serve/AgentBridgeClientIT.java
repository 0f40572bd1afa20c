package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.adapters.bridge.BridgeServer;
import dev.serverfs.bootstrap.agent.EmbeddedAgent;
import dev.serverfs.bootstrap.config.ConfigLoader;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.bootstrap.launch.ServerFsProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} without embedded mode reaches an Agent service behind a {@link BridgeServer} through the Bridge
 * client over a real AF_UNIX socket (both in this JVM; the two-process test comes with {@code serverfs bridge}):
 * MCP-side checks first, then every call crosses the socket.
 */
class AgentBridgeClientIT {

    @Test
    @SuppressWarnings("try") // the Bridge is stopped mid-test, on purpose
    void serve_drives_a_task_through_the_bridge_socket(@TempDir Path dir) throws Exception {
        Path proj = Files.createDirectories(dir.resolve("proj"));
        Path socket = dir.resolve("run").resolve("bridge.sock");
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        env.put("SERVERFS_AGENT_LOCK_DIR", dir.resolve("locks").toString());
        env.put("SERVERFS_AGENT_BRIDGE_SOCKET", socket.toString());
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", dir.resolve("state").toString());
        env.put("WORKDIR_01_ALIAS", "proj");
        env.put("WORKDIR_01_PATH", proj.toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "fake");
        Map<String, String> bridgeEnv = new HashMap<>(env);
        bridgeEnv.put("SERVERFS_AGENT_EMBEDDED", "true");
        ServerFsConfig bridgeConfig = ConfigLoader.load(bridgeEnv, Optional.empty());
        ServerFsConfig serveConfig = ConfigLoader.load(env, Optional.empty());

        try (EmbeddedAgent agent = EmbeddedAgent.start(
                        bridgeConfig.agent(),
                        bridgeConfig.workdirs(),
                        List.of(),
                        ServerFsProcess.fakeProviderArgv(),
                        Clock.systemUTC(),
                        "test");
                BridgeServer bridge = BridgeServer.start(
                        BridgeServer.Settings.of(socket, Optional.empty(), Optional.empty()), agent.useCases());
                ServeWiring serving = ServeWiring.start(serveConfig)) {
            McpTestClient mcp = new McpTestClient(serving.server().endpoint());
            JsonNode runtimes = mcp.call("list_agent_runtimes", Map.of()).ok().get("runtimes");
            assertEquals("fake", runtimes.get(0).get("name").asText());
            assertTrue(runtimes.get(0).get("available").asBoolean());

            Map<String, Object> onFile = AgentServeIT.submit("proj", "fake", "complete:x");
            onFile.put("path", "missing");
            assertEquals("PATH_NOT_FOUND", mcp.call("submit_agent_task", onFile).code(), "checked before the Bridge");

            Map<String, Object> args = AgentServeIT.submit("proj", "fake", "complete:all done");
            args.put("idempotency_key", "k-1");
            JsonNode handle = mcp.call("submit_agent_task", args).ok();
            assertEquals("queued", handle.get("status").asText());
            String id = handle.get("task_id").asText();
            assertEquals(
                    id, mcp.call("submit_agent_task", args).ok().get("task_id").asText(), "replayed");

            JsonNode task = awaitTerminal(mcp, id);
            assertEquals("succeeded", task.get("status").asText());
            assertEquals("all done", task.get("final_response").asText());
            assertEquals("proj", task.get("workdir_alias").asText());
            JsonNode events = mcp.call("read_agent_task_events", Map.of("task_id", id))
                    .ok()
                    .get("events");
            assertEquals("task.started", events.get(0).get("event_type").asText());
            assertEquals(
                    "succeeded",
                    mcp.call("cancel_agent_task", Map.of("task_id", id))
                            .ok()
                            .get("status")
                            .asText());
            assertEquals(
                    "AGENT_TASK_NOT_FOUND",
                    mcp.call("get_agent_task", Map.of("task_id", "agt_" + "0".repeat(24)))
                            .code());

            bridge.close();
            assertEquals(
                    "AGENT_BRIDGE_UNAVAILABLE",
                    mcp.call("get_agent_task", Map.of("task_id", id)).code());
        }
    }

    private static JsonNode awaitTerminal(McpTestClient mcp, String id) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            JsonNode task = mcp.call("get_agent_task", Map.of("task_id", id)).ok();
            String status = task.get("status").asText();
            if (List.of("succeeded", "failed", "cancelled", "interrupted").contains(status)
                    || System.nanoTime() > deadline) {
                return task;
            }
            LockSupport.parkNanos(20_000_000);
        }
    }
}
