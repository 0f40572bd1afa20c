package dev.serverfs.bootstrap.tasks;

import dev.serverfs.adapters.sqlite.SqliteTaskStores.TaskSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Renders the operator listing as an aligned plain-text table; pure, so tests pin the exact output. */
final class TaskTable {

    private static final List<String> HEADER =
            List.of("TASK_ID", "RUNTIME", "WORKDIR", "PROFILE", "STATUS", "AGE", "ERROR");

    private TaskTable() {}

    static String render(List<TaskSummary> tasks, Instant now, boolean all) {
        if (tasks.isEmpty()) {
            return all ? "No tasks.\n" : "No active tasks (use --all to include finished ones).\n";
        }
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        for (TaskSummary task : tasks) {
            rows.add(List.of(
                    task.taskId(),
                    task.runtime(),
                    task.workdirAlias(),
                    task.profile(),
                    task.status(),
                    age(Duration.between(task.createdAt(), now)),
                    task.errorCode().orElse("-")));
        }
        int[] widths = new int[HEADER.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(row.get(i));
                if (i < row.size() - 1) {
                    line.append(" ".repeat(widths[i] - row.get(i).length() + 2));
                }
            }
            text.append(line.toString().stripTrailing()).append('\n');
        }
        return text.toString();
    }

    /** Largest whole unit: {@code 45s}, {@code 12m}, {@code 3h}, {@code 2d}; a clock behind the row reads {@code 0s}. */
    static String age(Duration age) {
        long seconds = Math.max(0, age.toSeconds());
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return seconds / 60 + "m";
        }
        if (seconds < 86_400) {
            return seconds / 3600 + "h";
        }
        return seconds / 86_400 + "d";
    }
}
