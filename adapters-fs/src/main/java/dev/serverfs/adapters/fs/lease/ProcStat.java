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
        Optional<String[]> fields = fieldsAfterComm(stat.get());
        Optional<Long> startTime = fields.flatMap(ProcStat::startTime);
        if (startTime.isEmpty()) {
            return ProviderState.UNKNOWN;
        }
        if (startTime.get() != expectedStartTime) {
            return ProviderState.STOPPED;
        }
        String state = fields.get()[0];
        return state.equals("Z") || state.equals("X") ? ProviderState.STOPPED : ProviderState.ACTIVE;
    }

    /** Field 22 of a stat line, for recording a process we just started. */
    static Optional<Long> startTime(String stat) {
        return fieldsAfterComm(stat).flatMap(ProcStat::startTime);
    }

    /**
     * Fields 3.. of a stat line ({@code [0]} is field 3, the state), when there are at least up to field 22. Field
     * 2 (comm) is in parentheses and may itself contain spaces and parentheses: split after the last ')'.
     */
    private static Optional<String[]> fieldsAfterComm(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 > stat.length()) {
            return Optional.empty();
        }
        String[] rest = stat.substring(close + 2).trim().split(" ");
        return rest.length < 20 ? Optional.empty() : Optional.of(rest);
    }

    /** Field 22, the start time in clock ticks since boot. */
    private static Optional<Long> startTime(String[] fieldsAfterComm) {
        try {
            return Optional.of(Long.parseLong(fieldsAfterComm[19]));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
