package dev.serverfs.bootstrap.serve;

import dev.serverfs.bootstrap.bridge.BridgeCommand;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;

/** A real {@code serverfs bridge} child process (see {@link ServeProcess}), started and waited for until ready. */
final class BridgeProcess {
    private BridgeProcess() {}

    /** Starts {@code serverfs bridge} and waits for its ready line (or its exit). */
    static ServeProcess startReady(Map<String, String> env) throws IOException, InterruptedException {
        ServeProcess bridge = ServeProcess.startCommand("bridge", env);
        if (bridge.awaitLine(l -> l.equals(BridgeCommand.READY), AgentProbe.WAIT)
                .isEmpty()) {
            bridge.close();
            throw new AssertionError("the Bridge did not become ready: " + bridge.stderr());
        }
        return bridge;
    }

    /** Runs {@code serverfs bridge} expecting it to refuse: its exit code. */
    static ServeProcess startRefused(Map<String, String> env) throws IOException {
        return ServeProcess.startCommand("bridge", env);
    }

    static final Duration GRACE = Duration.ofSeconds(45);
}
