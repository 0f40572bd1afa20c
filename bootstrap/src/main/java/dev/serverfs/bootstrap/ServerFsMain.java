package dev.serverfs.bootstrap;

import dev.serverfs.bootstrap.aot.AotTrainCommand;
import dev.serverfs.bootstrap.bridge.BridgeCommand;
import dev.serverfs.bootstrap.ingress.IngressCommand;
import dev.serverfs.bootstrap.launch.ServerFsVersion;
import dev.serverfs.bootstrap.serve.ServeCommand;
import dev.serverfs.bootstrap.tasks.TasksCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The only {@code main}: dispatches to the sub-commands (roles) of the one runnable artifact. */
@Command(
        name = "serverfs",
        mixinStandardHelpOptions = true,
        versionProvider = ServerFsVersion.class,
        description = "MCP server for administrator-chosen Linux directories.",
        subcommands = {
            VersionCommand.class,
            CheckConfigCommand.class,
            ServeCommand.class,
            BridgeCommand.class,
            IngressCommand.class,
            TasksCommand.class,
            AotTrainCommand.class,
            FakeProviderCommand.class
        })
public final class ServerFsMain implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs one command line and returns its exit code; tests call this instead of {@link #main}. */
    public static int run(String... args) {
        return new CommandLine(new ServerFsMain()).execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a sub-command is required");
    }
}
