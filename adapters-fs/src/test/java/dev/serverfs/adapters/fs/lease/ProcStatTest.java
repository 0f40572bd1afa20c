package dev.serverfs.adapters.fs.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.serverfs.domain.task.ProviderState;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProcStatTest {
    /** A real-shaped line whose comm contains spaces and parentheses; field 22 is 987654. */
    private static final String STAT = "4242 (codex (app) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 7 0 "
            + "987654 123456 789 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";

    @Test
    void same_start_time_is_active_and_a_different_one_is_a_reused_pid() {
        assertEquals(ProviderState.ACTIVE, ProcStat.classify(Optional.of(STAT), 987654));
        assertEquals(ProviderState.STOPPED, ProcStat.classify(Optional.of(STAT), 987653));
        assertEquals(Optional.of(987654L), ProcStat.startTime(STAT));
    }

    @Test
    void a_missing_process_or_a_zombie_is_stopped() {
        assertEquals(ProviderState.STOPPED, ProcStat.classify(Optional.empty(), 1));
        assertEquals(ProviderState.STOPPED, ProcStat.classify(Optional.of(STAT.replace(") S ", ") Z ")), 987654));
    }

    @Test
    void garbage_is_unknown() {
        assertEquals(ProviderState.UNKNOWN, ProcStat.classify(Optional.of("4242 (x) S 1 2"), 1));
        assertEquals(ProviderState.UNKNOWN, ProcStat.classify(Optional.of("no parenthesis"), 1));
        assertEquals(Optional.empty(), ProcStat.startTime("1 (x) S"));
    }
}
