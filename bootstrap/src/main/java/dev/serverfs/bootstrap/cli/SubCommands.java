package dev.serverfs.bootstrap.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.MissingOptionException;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;

/**
 * Parses and runs one {@link SubCommand} with Apache Commons CLI: exit {@value #EXIT_USAGE} with the reason and the
 * sub-command's usage on stderr for a command line that does not parse (an unknown option, a missing value, a stray
 * argument, an option given twice); {@code --help} prints the usage on stdout; an unexpected exception is printed with its stack trace and
 * exits {@value #EXIT_SOFTWARE}. Long options are matched whole, never by a prefix.
 */
public final class SubCommands {

    /** Exit code of a command line that does not parse. */
    public static final int EXIT_USAGE = 2;

    /** Exit code when a sub-command fails with an unexpected exception. */
    public static final int EXIT_SOFTWARE = 1;

    private static final String HELP = "help";
    private static final int WIDTH = 100;

    private SubCommands() {}

    /** Runs {@code command} with the arguments that follow its name. */
    public static int execute(SubCommand command, String... args) {
        Options options = command.options()
                .addOption(Option.builder("h")
                        .longOpt(HELP)
                        .desc("Show this help and exit.")
                        .get());
        try {
            CommandLine line =
                    DefaultParser.builder().setAllowPartialMatching(false).get().parse(options, args);
            if (line.hasOption(HELP)) {
                printHelp(command, options, System.out);
                return 0;
            }
            List<String> stray = line.getArgList();
            if (!stray.isEmpty()) {
                throw new ParseException("Unexpected argument: " + stray.getFirst());
            }
            Set<String> seen = new HashSet<>();
            for (Option option : line.getOptions()) {
                if (!seen.add(option.getKey())) {
                    throw new ParseException("Option --" + option.getLongOpt() + " given more than once");
                }
            }
            return command.run(line);
        } catch (MissingOptionException e) {
            // Help wins over a required option left out, as it does over everything else on the line.
            if (Arrays.stream(args).anyMatch(a -> a.equals("-h") || a.equals("--" + HELP))) {
                printHelp(command, options, System.out);
                return 0;
            }
            System.err.println("ServerFS: " + e.getMessage());
            printHelp(command, options, System.err);
            return EXIT_USAGE;
        } catch (ParseException e) {
            System.err.println("ServerFS: " + e.getMessage());
            printHelp(command, options, System.err);
            return EXIT_USAGE;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            e.printStackTrace();
            return EXIT_SOFTWARE;
        }
    }

    private static void printHelp(SubCommand command, Options options, PrintStream out) {
        PrintWriter writer = new PrintWriter(out);
        HelpFormatter help = HelpFormatter.builder().setPrintWriter(writer).get();
        help.setOptionComparator(null); // as declared
        help.printHelp(writer, WIDTH, "serverfs " + command.name(), command.description(), options, 1, 3, null, true);
        writer.flush();
    }
}
