package dev.serverfs.adapters.claude;

import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Whether a recorded provider process still runs (CONTRACT.md §3.2): its pid with the same start time (field 22 of
 * {@code /proc/<pid>/stat}) is it; no such pid, or one with another start time, proves it gone.
 */
final class ProcessProof {
    private ProcessProof() {}

    static ProviderState state(ProviderProcess recorded) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(recorded.pid()), "stat"));
        } catch (NoSuchFileException e) {
            return ProviderState.STOPPED;
        } catch (IOException | RuntimeException e) {
            return ProviderState.UNKNOWN;
        }
        int close = stat.lastIndexOf(')');
        String[] rest =
                close < 0 ? new String[0] : stat.substring(close + 2).trim().split(" ");
        if (rest.length < 20) {
            return ProviderState.UNKNOWN;
        }
        if (rest[0].equals("Z")) {
            return ProviderState.STOPPED; // a zombie runs no more code
        }
        try {
            return Long.parseLong(rest[19]) == recorded.startTime() ? ProviderState.ACTIVE : ProviderState.STOPPED;
        } catch (NumberFormatException e) {
            return ProviderState.UNKNOWN;
        }
    }
}
