package dev.serverfs.bootstrap.serve;

import dev.serverfs.bootstrap.serve.MockMessagesApi.Reply;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a test (never in the normal run; BENCHMARKS.md "Claude runtime"): one-message {@code claude} tasks against
 * {@link MockMessagesApi}, through a real {@code serve} with the embedded Agent service and the real CLI, measured by
 * {@link ProviderTaskBench} (the first provider event, {@code turn.started}, is Claude's {@code system/init}).
 *
 * <pre>mvn -B -q -pl bootstrap -am verify -Dtest=ClaudeTaskBenchmark -Dsurefire.failIfNoSpecifiedTests=false</pre>
 *
 * <p>{@code -DproviderBench.unconfined=true} runs the children without their provider view, for the side-by-side
 * rows of BENCHMARKS.md "Provider view".
 */
class ClaudeTaskBenchmark {
    private static final int TASKS = Integer.getInteger("claudeBench.tasks", 12);

    @Test
    void measure(@TempDir Path dir) throws Exception {
        Path bin = ClaudeCode.binary();
        try (ProviderWorld<MockMessagesApi> world =
                ClaudeWorld.start(dir, bin, r -> new Reply.Text("Hello from the mock"), ProviderTaskBench.settings())) {
            world.serve.close(); // the bench starts its own serve with the same world
            world.vars.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
            ProviderTaskBench.measure("claude", world.vars, world.locks, TASKS);
        }
    }
}
