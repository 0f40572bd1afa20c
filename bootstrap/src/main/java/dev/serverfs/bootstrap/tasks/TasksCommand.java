package dev.serverfs.bootstrap.tasks;

import dev.serverfs.adapters.sqlite.SqliteTaskStores;
import dev.serverfs.adapters.sqlite.SqliteTaskStores.TaskSummary;
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
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code serverfs tasks [--all] [--env-file F]}: lists Agent tasks from the store in {@code
 * SERVERFS_AGENT_BRIDGE_STATE_DIR} (id, runtime, workdir alias, profile, status, age, error code), non-terminal
 * ones unless {@code --all}. Exit 0 (also when there is no store yet), 2 for a configuration error or an unsafe
 * state directory, 1 when the store cannot be read.
 */
@Command(
        name = "tasks",
        description = "List Agent tasks from the task store (read-only; non-terminal tasks unless --all).")
public final class TasksCommand implements Callable<Integer> {

    /** Exit code when the store exists but cannot be read. */
    static final int EXIT_STORE_ERROR = 1;

    @Mixin
    private EnvFileOption envFileOption;

    @Option(names = "--all", description = "Include finished tasks (succeeded, failed, cancelled, interrupted).")
    private boolean all;

    private final Clock clock;
    private final PrintStream out;

    /** The command as picocli creates it: system clock, standard output. */
    public TasksCommand() {
        this(Clock.systemUTC(), System.out);
    }

    TasksCommand(Clock clock, PrintStream out) {
        this.clock = clock;
        this.out = out;
    }

    @Override
    public Integer call() {
        ServerFsConfig config;
        try {
            config = ConfigLoader.loadFromProcess(envFileOption.envFile());
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
