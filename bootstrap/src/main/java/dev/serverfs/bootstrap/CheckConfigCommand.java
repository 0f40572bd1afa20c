package dev.serverfs.bootstrap;

import dev.serverfs.bootstrap.config.ConfigLoader;
import dev.serverfs.bootstrap.config.ConfigurationException;
import dev.serverfs.bootstrap.config.EffectiveConfigReport;
import dev.serverfs.bootstrap.config.EnvFileOption;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.bootstrap.logging.ServerFsLogging;
import dev.serverfs.bootstrap.logging.StartupEvents;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code serverfs check-config [--env-file F] [--bridge]}: validates the configuration exactly as {@code serve}
 * (with {@code --bridge}: {@code serverfs bridge}) would and prints the effective policy per workdir (CONTRACT.md
 * §4); exit 0, or 2 with the reason.
 */
@Command(
        name = "check-config",
        description = "Validate the configuration and print the effective policy per workdir (no paths, no secrets).")
final class CheckConfigCommand implements Callable<Integer> {

    @Mixin
    private EnvFileOption envFileOption;

    @Option(
            names = "--bridge",
            description = "Validate as serverfs bridge reads it (the Agent Bridge's own rules and host-side paths).")
    private boolean bridge;

    @Override
    public Integer call() {
        ServerFsConfig config;
        try {
            config = bridge
                    ? ConfigLoader.loadBridge(System.getenv(), envFileOption.envFile())
                    : ConfigLoader.loadFromProcess(envFileOption.envFile());
        } catch (ConfigurationException e) {
            return StartupEvents.configurationFailed(e);
        }
        ServerFsLogging.applyLevel(config.logLevel());
        System.out.print(EffectiveConfigReport.render(config));
        System.out.flush();
        return 0;
    }
}
