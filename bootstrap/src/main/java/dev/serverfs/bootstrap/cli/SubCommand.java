package dev.serverfs.bootstrap.cli;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;

/**
 * One sub-command (role) of the {@code serverfs} artifact: its name and one-line description for the usage text,
 * its options, and what it does with them. {@link SubCommands#execute} parses and runs one; {@code --help} is
 * every sub-command's.
 */
public interface SubCommand {

    String name();

    String description();

    /** Left out of the usage text: a child process's entry point, of no use by hand. */
    default boolean hidden() {
        return false;
    }

    /** A new set of this sub-command's options (a parse records its values on its own copies). */
    default Options options() {
        return new Options();
    }

    /**
     * Runs with the parsed command line and returns the exit code. A {@link org.apache.commons.cli.ParseException}
     * (an option's value that does not convert) is a usage error like one the parser found.
     */
    int run(CommandLine line) throws Exception;
}
