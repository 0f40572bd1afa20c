package dev.serverfs.bootstrap;

import dev.serverfs.adapters.fake.FakeProvider;
import dev.serverfs.bootstrap.cli.SubCommand;
import dev.serverfs.bootstrap.launch.ServerFsProcess;
import org.apache.commons.cli.CommandLine;

/**
 * {@code serverfs fake-provider} (hidden): the child process of the test-only {@code fake} runtime (reference
 * §7.3). It speaks a line protocol on stdin/stdout with its parent and is useless by hand; the parent only starts
 * it when {@code SERVERFS_AGENT_ENABLE_FAKE_RUNTIME=true}. Launch argv: {@link #argv()}.
 */
final class FakeProviderCommand implements SubCommand {

    /** The argv that starts this sub-command on the current JVM and class path. */
    static java.util.List<String> argv() {
        return ServerFsProcess.fakeProviderArgv();
    }

    @Override
    public String name() {
        return "fake-provider";
    }

    @Override
    public String description() {
        return "Child process of the test-only fake Agent runtime.";
    }

    @Override
    public boolean hidden() {
        return true;
    }

    @Override
    public int run(CommandLine line) {
        return FakeProvider.run(System.in, System.out);
    }
}
