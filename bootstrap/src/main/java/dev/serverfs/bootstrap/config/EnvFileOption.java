package dev.serverfs.bootstrap.config;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The {@code --env-file FILE} option every configuration-reading sub-command shares (a picocli mixin). */
public final class EnvFileOption {

    @Option(
            names = "--env-file",
            paramLabel = "FILE",
            description = "Read variables from this .env file; the process environment wins over it.")
    private Path envFile;

    public Optional<Path> envFile() {
        return Optional.ofNullable(envFile);
    }
}
