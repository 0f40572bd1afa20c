package dev.serverfs.bootstrap.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.serverfs.adapters.sqlite.SqliteTaskStores.TaskSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TaskTableTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @Test
    void rows_are_aligned_under_a_header_with_age_and_error_code() {
        List<TaskSummary> tasks = List.of(
                new TaskSummary(
                        "agt_000000000000000000000001",
                        "codex",
                        "docs",
                        "workspace-write",
                        "running",
                        NOW.minusSeconds(90),
                        Optional.empty(),
                        Optional.empty()),
                new TaskSummary(
                        "agt_000000000000000000000002",
                        "claude",
                        "scratch",
                        "review",
                        "interrupted",
                        NOW.minus(Duration.ofDays(3)),
                        Optional.of(NOW),
                        Optional.of("BRIDGE_RESTARTED")));
        assertEquals("""
                TASK_ID                       RUNTIME  WORKDIR  PROFILE          STATUS       AGE  ERROR
                agt_000000000000000000000001  codex    docs     workspace-write  running      1m   -
                agt_000000000000000000000002  claude   scratch  review           interrupted  3d   BRIDGE_RESTARTED
                """, TaskTable.render(tasks, NOW, true));
    }

    @Test
    void an_empty_listing_says_so_and_hints_at_all() {
        assertEquals(
                "No active tasks (use --all to include finished ones).\n", TaskTable.render(List.of(), NOW, false));
        assertEquals("No tasks.\n", TaskTable.render(List.of(), NOW, true));
    }

    @Test
    void age_uses_the_largest_whole_unit() {
        assertEquals("0s", TaskTable.age(Duration.ofSeconds(-5)));
        assertEquals("59s", TaskTable.age(Duration.ofSeconds(59)));
        assertEquals("1m", TaskTable.age(Duration.ofSeconds(60)));
        assertEquals("59m", TaskTable.age(Duration.ofSeconds(3599)));
        assertEquals("1h", TaskTable.age(Duration.ofHours(1)));
        assertEquals("23h", TaskTable.age(Duration.ofSeconds(86_399)));
        assertEquals("7d", TaskTable.age(Duration.ofDays(7)));
    }
}
