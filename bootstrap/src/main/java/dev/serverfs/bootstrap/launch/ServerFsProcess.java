package dev.serverfs.bootstrap.launch;

import dev.serverfs.adapters.fake.FakeAgentRuntime;
import java.util.List;

/** The process-level facts of ServerFS that sub-commands and wiring need. */
public final class ServerFsProcess {

    /** Exit code for configuration errors (contract reference §1.5). */
    public static final int EXIT_CONFIGURATION_ERROR = 2;

    /**
     * The class with the one {@code main}, by name: naming the class itself would make every package that starts a
     * child depend on the command line root, which depends on them (ServerFsProcessTest checks the name).
     */
    public static final String MAIN_CLASS = "dev.serverfs.bootstrap.ServerFsMain";

    private ServerFsProcess() {}

    /** The argv that starts {@code serverfs fake-provider} (the test-only fake runtime's child) on this JVM. */
    public static List<String> fakeProviderArgv() {
        return FakeAgentRuntime.javaCommand(MAIN_CLASS, "fake-provider");
    }
}
