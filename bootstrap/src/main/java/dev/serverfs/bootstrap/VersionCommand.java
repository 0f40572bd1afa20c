package dev.serverfs.bootstrap;

import dev.serverfs.bootstrap.cli.SubCommand;
import dev.serverfs.bootstrap.launch.ServerFsVersion;
import org.apache.commons.cli.CommandLine;

/** {@code serverfs version}: prints the version and the Java runtime it runs on. */
final class VersionCommand implements SubCommand {

    @Override
    public String name() {
        return "version";
    }

    @Override
    public String description() {
        return "Print the ServerFS version.";
    }

    @Override
    public int run(CommandLine line) {
        System.out.println("ServerFS " + ServerFsVersion.version() + " (Java " + Runtime.version() + ")");
        return 0;
    }
}
