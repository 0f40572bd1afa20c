package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.domain.task.RecoveryGuard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One real-provider test's world: its own {@code HOME}, a read-write workdir {@code proj} in {@code workspace-write}
 * mode allowing only {@code runtime}, the state and lock directories, the provider's mock model API, a real {@code
 * serverfs serve} with the embedded Agent service (or, with {@code SERVERFS_AGENT_EMBEDDED=false}, a {@code serverfs
 * bridge} beside it) and an MCP client. {@link CodexWorld} and {@link ClaudeWorld} add
 * what their CLI needs. Closing it stops {@code serve}, then the mock.
 */
final class ProviderWorld<M extends ProviderWorld.MockModel> implements AutoCloseable {
    private static final Set<String> TERMINAL = Set.of("succeeded", "failed", "cancelled", "interrupted");

    /** A mock model server a world stops last; closing it throws nothing. */
    interface MockModel extends AutoCloseable {
        @Override
        void close();
    }

    final Path home;
    final Path proj;
    final Path state;
    final Path locks;
    final M mock;
    /** The environment of {@code serve}; a test may change it before {@link #startServe()}. */
    final Map<String, String> vars = new HashMap<>();

    private final String runtime;
    /** The split deployment's {@code serverfs bridge}, when {@code extra} set {@code SERVERFS_AGENT_EMBEDDED=false}. */
    ServeProcess bridge;

    ServeProcess serve;
    McpTestClient mcp;
    AgentProbe probe;

    /**
     * Takes {@code mock} over (closed with the world, or at once if {@code serve} does not start). {@code provider}
     * is the CLI's own environment; {@code extra} is applied last.
     */
    ProviderWorld(Path dir, String runtime, M mock, Map<String, String> provider, Map<String, String> extra)
            throws Exception {
        this.runtime = runtime;
        this.mock = mock;
        try {
            home = Files.createDirectories(dir.resolve("home"));
            proj = Files.createDirectories(dir.resolve("proj"));
            state = dir.resolve("state");
            locks = dir.resolve("locks");
            vars.put("HOME", home.toString());
            vars.putAll(provider);
            vars.put("SERVERFS_HOST", "127.0.0.1");
            vars.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
            vars.put("SERVERFS_AGENT_EMBEDDED", "true");
            vars.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", state.toString());
            vars.put("SERVERFS_AGENT_LOCK_DIR", locks.toString());
            vars.put("WORKDIR_01_ALIAS", "proj");
            vars.put("WORKDIR_01_PATH", proj.toString());
            vars.put("WORKDIR_01_READ_ONLY", "false");
            vars.put("WORKDIR_01_AGENT_MODE", "workspace-write");
            vars.put("WORKDIR_01_AGENT_RUNTIMES", runtime);
            vars.putAll(extra);
            startServe();
        } catch (Exception | Error e) {
            try {
                close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * A fresh {@code serve} on a free port with {@link #vars} (e.g. after the previous one was stopped); in the split
     * deployment the Bridge is started first, once.
     */
    void startServe() throws Exception {
        if (!"true".equals(vars.get("SERVERFS_AGENT_EMBEDDED")) && bridge == null) {
            vars.put(
                    "SERVERFS_AGENT_BRIDGE_SOCKET",
                    state.resolveSibling("run").resolve("bridge.sock").toString());
            bridge = BridgeProcess.startReady(vars);
        }
        vars.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        serve = ServeProcess.start(vars);
        mcp = new McpTestClient(serve.awaitUrl(AgentProbe.WAIT));
        probe = new AgentProbe(mcp, locks);
    }

    /** A {@code workspace-write} task in {@code proj}; its task id. */
    String submit(String prompt) throws Exception {
        return submit(prompt, "workspace-write");
    }

    String submit(String prompt, String profile) throws Exception {
        return AgentServeIT.created(
                mcp.call("submit_agent_task", AgentServeIT.submit("proj", runtime, prompt, profile)));
    }

    JsonNode awaitStatus(String id, String status) throws Exception {
        return probe.awaitStatus(id, status);
    }

    /** Waits for {@code succeeded}, answering every approval the task asks on the way with {@code decision}. */
    JsonNode finish(String id, String decision) throws Exception {
        return finish(id, request -> decision, new ArrayList<>());
    }

    /**
     * Runs task {@code id} to its end, answering each approval with what {@code decide} says of its pending request,
     * which is added to {@code asked}; the task, which must have {@code succeeded}. Returns once the workdir's writer
     * lease is free again: a task is terminal before its runner has drained, and the next submit of a {@code
     * workspace-write} task would find the workdir busy meanwhile.
     */
    JsonNode finish(String id, Function<JsonNode, String> decide, List<JsonNode> asked) throws Exception {
        while (true) {
            JsonNode task = probe.awaitTask(
                    id,
                    t -> TERMINAL.contains(t.get("status").asText())
                            || (t.has("pending_request")
                                    && !t.get("pending_request").isNull()));
            if (TERMINAL.contains(task.get("status").asText())) {
                assertEquals("succeeded", task.get("status").asText(), task.toString());
                probe.awaitLeaseReleased(1);
                return task;
            }
            JsonNode request = task.get("pending_request");
            asked.add(request);
            mcp.call(
                            "respond_agent_approval",
                            Map.of(
                                    "task_id",
                                    id,
                                    "request_id",
                                    request.get("request_id").asText(),
                                    "decision",
                                    decide.apply(request)))
                    .ok();
        }
    }

    JsonNode awaitPending(String id) throws Exception {
        return probe.awaitPending(id);
    }

    RecoveryGuard awaitProvider() throws Exception {
        return probe.awaitProvider(1);
    }

    @Override
    public void close() {
        try {
            if (serve != null) {
                serve.close();
            }
        } finally {
            try {
                if (bridge != null) {
                    bridge.close();
                }
            } finally {
                mock.close();
            }
        }
    }
}
