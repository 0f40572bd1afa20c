package dev.serverfs.bootstrap;

import dev.serverfs.bootstrap.cli.SubCommand;
import dev.serverfs.bootstrap.config.ConfigLoader;
import dev.serverfs.bootstrap.config.ConfigurationException;
import dev.serverfs.bootstrap.config.EffectiveConfigReport;
import dev.serverfs.bootstrap.config.EnvFileOption;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.bootstrap.logging.ServerFsLogging;
import dev.serverfs.bootstrap.logging.StartupEvents;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code serverfs check-config [--env-file F] [--bridge]}: validates the configuration exactly as {@code serve}
 * (with {@code --bridge}: {@code serverfs bridge}) would and prints the effective policy per workdir (CONTRACT.md
 * §4); exit 0, or 2 with the reason.
 */
final class CheckConfigCommand implements SubCommand {

    private static final String BRIDGE = "bridge";

    @Override
    public String name() {
        return "check-config";
    }

    @Override
    public String description() {
        return "Validate the configuration and print the effective policy per workdir (no paths, no secrets).";
    }

    @Override
    public Options options() {
        return new Options()
                .addOption(EnvFileOption.option())
                .addOption(Option.builder()
                        .longOpt(BRIDGE)
                        .desc(
                                "Validate as serverfs bridge reads it (the Agent Bridge's own rules and host-side paths).")
                        .get());
    }

    @Override
    public int run(CommandLine line) {
        ServerFsConfig config;
        try {
            config = line.hasOption(BRIDGE)
                    ? ConfigLoader.loadBridge(System.getenv(), EnvFileOption.envFile(line))
                    : ConfigLoader.loadFromProcess(EnvFileOption.envFile(line));
        } catch (ConfigurationException e) {
            return StartupEvents.configurationFailed(e);
        }
        ServerFsLogging.applyLevel(config.logLevel());
        System.out.print(EffectiveConfigReport.render(config));
        System.out.flush();
        return 0;
    }
}
