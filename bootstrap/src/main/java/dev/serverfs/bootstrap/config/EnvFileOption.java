package dev.serverfs.bootstrap.config;

import java.nio.file.Path;
import java.util.Optional;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;

/** The {@code --env-file FILE} option every configuration-reading sub-command shares. */
public final class EnvFileOption {

    private static final String NAME = "env-file";

    private EnvFileOption() {}

    public static Option option() {
        return Option.builder()
                .longOpt(NAME)
                .hasArg()
                .argName("FILE")
                .desc("Read variables from this .env file; the process environment wins over it.")
                .get();
    }

    /** The file given on {@code line}, if any. */
    public static Optional<Path> envFile(CommandLine line) {
        return Optional.ofNullable(line.getOptionValue(NAME)).map(Path::of);
    }
}
