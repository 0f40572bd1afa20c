package dev.serverfs.bootstrap.serve;

import dev.serverfs.bootstrap.serve.MockMessagesApi.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a test (never in the normal run; BENCHMARKS.md "Claude runtime"): one-message {@code claude} tasks against
 * {@link MockMessagesApi}, through a real {@code serve} with the embedded Agent service and the real CLI, measured by
 * {@link ProviderTaskBench} (the first provider event, {@code turn.started}, is Claude's {@code system/init}).
 *
 * <pre>mvn -B -q -pl bootstrap -am verify -Dtest=ClaudeTaskBenchmark -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
class ClaudeTaskBenchmark {
    private static final int TASKS = Integer.getInteger("claudeBench.tasks", 12);

    @Test
    void measure(@TempDir Path dir) throws Exception {
        Path bin = ClaudeCode.binary();
        Path proj = Files.createDirectories(dir.resolve("proj"));
        Path locks = dir.resolve("locks");
        try (MockMessagesApi mock = MockMessagesApi.start(r -> new Reply.Text("Hello from the mock"))) {
            Map<String, String> env = new HashMap<>();
            env.put("HOME", Files.createDirectories(dir.resolve("home")).toString());
            env.put("ANTHROPIC_BASE_URL", mock.baseUrl());
            env.put("ANTHROPIC_API_KEY", "sk-ant-mock-key");
            env.put("SERVERFS_HOST", "127.0.0.1");
            env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
            env.put("SERVERFS_LOG_LEVEL", "WARN");
            env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
            env.put("SERVERFS_AGENT_EMBEDDED", "true");
            env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", dir.resolve("state").toString());
            env.put("SERVERFS_AGENT_LOCK_DIR", locks.toString());
            env.put("SERVERFS_AGENT_CLAUDE_BIN", bin.toString());
            env.put("WORKDIR_01_ALIAS", "proj");
            env.put("WORKDIR_01_PATH", proj.toString());
            env.put("WORKDIR_01_READ_ONLY", "false");
            env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
            env.put("WORKDIR_01_AGENT_RUNTIMES", "claude");
            ProviderTaskBench.measure("claude", env, locks, TASKS);
        }
    }
}
