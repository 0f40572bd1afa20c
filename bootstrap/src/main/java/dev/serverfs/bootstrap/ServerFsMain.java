package dev.serverfs.bootstrap;

import dev.serverfs.bootstrap.aot.AotTrainCommand;
import dev.serverfs.bootstrap.bridge.BridgeCommand;
import dev.serverfs.bootstrap.cli.SubCommand;
import dev.serverfs.bootstrap.cli.SubCommands;
import dev.serverfs.bootstrap.ingress.IngressCommand;
import dev.serverfs.bootstrap.launch.ServerFsVersion;
import dev.serverfs.bootstrap.serve.ServeCommand;
import dev.serverfs.bootstrap.tasks.TasksCommand;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * The only {@code main}: {@code serverfs COMMAND [OPTIONS]} dispatches to the sub-commands (roles) of the one
 * runnable artifact; {@code -h}/{@code --help} and {@code -V}/{@code --version} stand alone.
 */
public final class ServerFsMain {

    /** New each run: a command may hold the standard streams of its time (tests replace them). */
    private static List<SubCommand> commands() {
        return List.of(
                new VersionCommand(),
                new CheckConfigCommand(),
                new ServeCommand(),
                new BridgeCommand(),
                new IngressCommand(),
                new TasksCommand(),
                new AotTrainCommand(),
                new FakeProviderCommand());
    }

    private ServerFsMain() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs one command line and returns its exit code; tests call this instead of {@link #main}. */
    public static int run(String... args) {
        if (args.length == 0) {
            return usageError("a sub-command is required");
        }
        switch (args[0]) {
            case "-h", "--help" -> {
                printUsage(System.out);
                return 0;
            }
            case "-V", "--version" -> {
                System.out.println("ServerFS " + ServerFsVersion.version());
                return 0;
            }
            default -> {
                String[] rest = Arrays.copyOfRange(args, 1, args.length);
                for (SubCommand command : commands()) {
                    if (command.name().equals(args[0])) {
                        return SubCommands.execute(command, rest);
                    }
                }
                return usageError("unknown sub-command: " + args[0]);
            }
        }
    }

    private static int usageError(String reason) {
        System.err.println("ServerFS: " + reason);
        printUsage(System.err);
        return SubCommands.EXIT_USAGE;
    }

    private static void printUsage(PrintStream out) {
        out.println("usage: serverfs [-h | -V] COMMAND [OPTIONS]");
        out.println("MCP server for administrator-chosen Linux directories.");
        out.println();
        out.println("Commands:");
        for (SubCommand command : commands()) {
            if (!command.hidden()) {
                out.printf("  %-14s%s%n", command.name(), command.description());
            }
        }
        out.println();
        out.println("  -h, --help     Show this help and exit.");
        out.println("  -V, --version  Print the version and exit.");
        out.println("Run 'serverfs COMMAND --help' for a command's options.");
        out.flush();
    }
}
