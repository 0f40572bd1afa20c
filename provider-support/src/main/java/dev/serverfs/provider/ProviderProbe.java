package dev.serverfs.provider;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A bounded run of a provider's version command (reference §3.1: a probe never starts a turn): the first stdout line
 * of a run that exits 0 within the timeout, else empty (missing binary, non-zero exit, too slow: the child is then
 * killed). stderr is drained and dropped.
 */
public final class ProviderProbe {
    private static final StopPolicy FAST =
            new StopPolicy(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(2), true);

    private static final Duration READ_WAIT = Duration.ofSeconds(2);

    private ProviderProbe() {}

    /** The first line {@code <bin> --version} prints, run in {@code /} with {@code environment}, within {@code timeout}. */
    public static Optional<String> version(String bin, Map<String, String> environment, Duration timeout) {
        return firstLine(new ProviderCommand(List.of(bin, "--version"), Path.of("/"), environment, 4096), timeout);
    }

    public static Optional<String> firstLine(ProviderCommand command, Duration timeout) {
        ProviderChild child;
        try {
            child = ProviderChild.start(command);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        child.closeInput();
        Optional<Integer> exit = awaitExit(child, timeout);
        if (exit.isEmpty()) {
            child.stop(FAST);
            return Optional.empty();
        }
        if (exit.get() != 0) {
            return Optional.empty();
        }
        // The reader thread may still be handing over the line after the exit; a grandchild holding stdout open
        // must not hold the probe, so the wait is bounded too.
        try {
            return child.takeWithin(READ_WAIT).map(String::strip).filter(s -> !s.isEmpty());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static Optional<Integer> awaitExit(ProviderChild child, Duration timeout) {
        try {
            return child.exitCode(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            child.stop(FAST);
            return Optional.empty();
        }
    }
}
