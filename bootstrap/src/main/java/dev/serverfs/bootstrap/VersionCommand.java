package dev.serverfs.bootstrap;

import dev.serverfs.bootstrap.launch.ServerFsVersion;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code serverfs version}: prints the version and the Java runtime it runs on. */
@Command(name = "version", description = "Print the ServerFS version.")
final class VersionCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.out.println("ServerFS " + ServerFsVersion.version() + " (Java " + Runtime.version() + ")");
        return 0;
    }
}
