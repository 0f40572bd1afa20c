package dev.serverfs.bootstrap.serve;

import dev.serverfs.bootstrap.serve.MockResponsesApi.Reply;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a test (never in the normal run; BENCHMARKS.md "Codex runtime"): one-message {@code codex} tasks against
 * {@link MockResponsesApi}, through a real {@code serve} with the embedded Agent service and the real {@code codex
 * app-server}, measured by {@link ProviderTaskBench} (the first provider event is {@code turn.started}).
 *
 * <pre>mvn -B -q -pl bootstrap -am verify -Dtest=CodexTaskBenchmark -Dsurefire.failIfNoSpecifiedTests=false</pre>
 *
 * <p>{@code -DproviderBench.unconfined=true} runs the children without their provider view, for the side-by-side
 * rows of BENCHMARKS.md "Provider view".
 */
class CodexTaskBenchmark {
    private static final int TASKS = Integer.getInteger("codexBench.tasks", 12);

    @Test
    void measure(@TempDir Path dir) throws Exception {
        Path bin = CodexCli.binary();
        try (ProviderWorld<MockResponsesApi> world =
                CodexWorld.start(dir, bin, r -> new Reply.Text("Hello from the mock"), ProviderTaskBench.settings())) {
            world.serve.close(); // the bench starts its own serve with the same world
            world.vars.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
            ProviderTaskBench.measure("codex", world.vars, world.locks, TASKS);
        }
    }
}
