package dev.serverfs.provider;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Field 22 of {@code /proc/<pid>/stat}, the start time in clock ticks since boot, which tells a reused pid apart
 * (CONTRACT.md §3.2). Field 2 (comm) is in parentheses and may itself hold spaces and parentheses: split after the
 * last ')'.
 */
final class ProcessStartTime {
    private ProcessStartTime() {}

    static Optional<Long> of(long pid) {
        try {
            return parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // already gone, or no /proc: nothing to record
        }
    }

    static Optional<Long> parse(String stat) {
        String[] rest = afterComm(stat);
        if (rest.length < 20) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(rest[19]));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Field 3, the state ({@code R}, {@code S}, {@code Z}, ...). */
    static Optional<String> state(String stat) {
        String[] rest = afterComm(stat);
        return rest.length > 0 && !rest[0].isEmpty() ? Optional.of(rest[0]) : Optional.empty();
    }

    /** Fields 3 onwards. */
    private static String[] afterComm(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 > stat.length()) {
            return new String[0];
        }
        return stat.substring(close + 2).trim().split(" ");
    }
}
