package dev.serverfs.bootstrap.tasks;

import dev.serverfs.adapters.sqlite.SqliteTaskStores;
import dev.serverfs.adapters.sqlite.SqliteTaskStores.TaskSummary;
import dev.serverfs.bootstrap.cli.SubCommand;
import dev.serverfs.bootstrap.config.ConfigLoader;
import dev.serverfs.bootstrap.config.ConfigurationException;
import dev.serverfs.bootstrap.config.EnvFileOption;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.bootstrap.logging.ServerFsLogging;
import dev.serverfs.bootstrap.logging.StartupEvents;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code serverfs tasks [--all] [--env-file F]}: lists Agent tasks from the store in {@code
 * SERVERFS_AGENT_BRIDGE_STATE_DIR} (id, runtime, workdir alias, profile, status, age, error code), non-terminal
 * ones unless {@code --all}. Exit 0 (also when there is no store yet), 2 for a configuration error or an unsafe
 * state directory, 1 when the store cannot be read.
 */
public final class TasksCommand implements SubCommand {

    /** Exit code when the store exists but cannot be read. */
    static final int EXIT_STORE_ERROR = 1;

    private static final String ALL = "all";

    private final Clock clock;
    private final PrintStream out;

    /** The command as {@code serverfs tasks} runs it: system clock, standard output. */
    public TasksCommand() {
        this(Clock.systemUTC(), System.out);
    }

    TasksCommand(Clock clock, PrintStream out) {
        this.clock = clock;
        this.out = out;
    }

    @Override
    public String name() {
        return "tasks";
    }

    @Override
    public String description() {
        return "List Agent tasks from the task store (read-only; non-terminal tasks unless --all).";
    }

    @Override
    public Options options() {
        return new Options()
                .addOption(EnvFileOption.option())
                .addOption(Option.builder()
                        .longOpt(ALL)
                        .desc("Include finished tasks (succeeded, failed, cancelled, interrupted).")
                        .get());
    }

    @Override
    public int run(CommandLine line) {
        boolean all = line.hasOption(ALL);
        ServerFsConfig config;
        try {
            config = ConfigLoader.loadFromProcess(EnvFileOption.envFile(line));
        } catch (ConfigurationException e) {
            return StartupEvents.configurationFailed(e);
        }
        ServerFsLogging.applyLevel(config.logLevel());
        Optional<Path> stateDirectory = config.agent().stateDir();
        if (stateDirectory.isEmpty()) {
            out.println("No Agent state directory is configured (SERVERFS_AGENT_BRIDGE_STATE_DIR): no tasks.");
            out.flush();
            return 0;
        }
        List<TaskSummary> tasks;
        try {
            tasks = SqliteTaskStores.listReadOnly(stateDirectory.get(), all);
        } catch (ServerFsException e) {
            if (e.code() == ErrorCode.CONFIGURATION_ERROR) {
                return StartupEvents.configurationFailed(e.getMessage());
            }
            System.err.println("ServerFS: the Agent task store cannot be read: " + e.agentText());
            System.err.flush();
            return EXIT_STORE_ERROR;
        }
        out.print(TaskTable.render(tasks, clock.instant(), all));
        out.flush();
        return 0;
    }
}
