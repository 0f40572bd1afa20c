package dev.serverfs.bootstrap;

import dev.serverfs.adapters.fake.FakeProvider;
import dev.serverfs.bootstrap.launch.ServerFsProcess;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code serverfs fake-provider} (hidden): the child process of the test-only {@code fake} runtime (reference
 * §7.3). It speaks a line protocol on stdin/stdout with its parent and is useless by hand; the parent only starts
 * it when {@code SERVERFS_AGENT_ENABLE_FAKE_RUNTIME=true}. Launch argv: {@link #argv()}.
 */
@Command(name = "fake-provider", hidden = true, description = "Child process of the test-only fake Agent runtime.")
final class FakeProviderCommand implements Callable<Integer> {

    /** The argv that starts this sub-command on the current JVM and class path. */
    static java.util.List<String> argv() {
        return ServerFsProcess.fakeProviderArgv();
    }

    @Override
    public Integer call() {
        return FakeProvider.run(System.in, System.out);
    }
}
