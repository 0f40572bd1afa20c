package dev.serverfs.adapters.fs.lease;

import dev.serverfs.domain.task.ProviderState;
import java.util.Optional;

/**
 * The pure part of "did the provider provably stop?" (CONTRACT.md §3.2): given the text of {@code
 * /proc/<pid>/stat} (absent when the pid does not exist), compare field 22, the start time in clock ticks since
 * boot. Gone, reused by another start time, or a zombie: stopped. Same start time: active. Unparseable: unknown.
 */
final class ProcStat {
    private ProcStat() {}

    static ProviderState classify(Optional<String> stat, long expectedStartTime) {
        if (stat.isEmpty()) {
            return ProviderState.STOPPED;
        }
        String text = stat.get();
        // Field 2 (comm) is in parentheses and may itself contain spaces and parentheses: split after the last ')'.
        int close = text.lastIndexOf(')');
        if (close < 0 || close + 2 > text.length()) {
            return ProviderState.UNKNOWN;
        }
        String[] rest = text.substring(close + 2).trim().split(" ");
        // rest[0] is field 3 (state); field 22 is rest[19].
        if (rest.length < 20) {
            return ProviderState.UNKNOWN;
        }
        long startTime;
        try {
            startTime = Long.parseLong(rest[19]);
        } catch (NumberFormatException e) {
            return ProviderState.UNKNOWN;
        }
        if (startTime != expectedStartTime) {
            return ProviderState.STOPPED;
        }
        String state = rest[0];
        return state.equals("Z") || state.equals("X") ? ProviderState.STOPPED : ProviderState.ACTIVE;
    }

    /** Field 22 of a stat line, for recording a process we just started. */
    static Optional<Long> startTime(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 > stat.length()) {
            return Optional.empty();
        }
        String[] rest = stat.substring(close + 2).trim().split(" ");
        if (rest.length < 20) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(rest[19]));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
