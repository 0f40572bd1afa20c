package dev.serverfs.adapters.sqlite;

import static dev.serverfs.application.testing.TaskFixtures.T0;
import static dev.serverfs.application.testing.TaskFixtures.approvalRequest;
import static dev.serverfs.application.testing.TaskFixtures.manifest;
import static dev.serverfs.application.testing.TaskFixtures.queued;
import static dev.serverfs.application.testing.TaskFixtures.requestId;
import static dev.serverfs.application.testing.TaskFixtures.taskId;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.serverfs.application.port.out.NewEvent;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.InteractionKind;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.ResultStorage;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskEvent;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskResult;
import dev.serverfs.domain.workdir.WorkdirAlias;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stored text of every column, as the store wrote it before jOOQ converters mapped the columns: the golden file
 * {@code stored-format.sql} was produced by that code. The store must keep writing exactly those rows (type and
 * text), and must read a database holding them (an existing user's store) as the same tasks, requests and events.
 * Regenerate only for a deliberate, migrated format change: {@code -Dserverfs.golden.write=true}.
 */
class StoredFormatTest {

    private static final Path GOLDEN = Path.of("src/test/resources/dev/serverfs/adapters/sqlite/stored-format.sql");
    private static final List<String> TABLES = List.of("tasks", "pending_requests", "events");
    private static final int MAX_EVENTS = 10_000;

    @TempDir
    Path temp;

    @Test
    void the_store_writes_every_column_exactly_as_the_golden_rows() throws Exception {
        Path stateDir = temp.resolve("state");
        try (SqliteTaskStores opened = SqliteTaskStores.open(stateDir)) {
            writeScenario(opened.taskStore());
        }
        String rows = dump(stateDir.resolve("state.sqlite3"));
        if (Boolean.getBoolean("serverfs.golden.write")) {
            Files.writeString(GOLDEN, rows, StandardCharsets.UTF_8);
        }
        assertEquals(Files.readString(GOLDEN, StandardCharsets.UTF_8), rows);
    }

    @Test
    void a_store_holding_the_golden_rows_reads_as_the_tasks_that_wrote_them() throws Exception {
        Path written = temp.resolve("written");
        List<Task> expectedTasks;
        List<Optional<PendingRequest>> expectedRequests;
        List<List<TaskEvent>> expectedEvents;
        try (SqliteTaskStores opened = SqliteTaskStores.open(written)) {
            writeScenario(opened.taskStore());
            TaskStore store = opened.taskStore();
            expectedTasks = store.list(true);
            expectedRequests = List.of(store.findRequest(requestId(1)), store.findRequest(requestId(2)));
            expectedEvents = expectedTasks.stream()
                    .map(t -> store.events(t.id(), 0, 100))
                    .toList();
        }

        Path existing = temp.resolve("existing");
        // Only the schema; the rows come from the golden file, as an earlier ServerFS left them.
        SqliteTaskStores.open(existing).close();
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + existing.resolve("state.sqlite3"));
                Statement statement = raw.createStatement()) {
            for (String insert : Files.readAllLines(GOLDEN, StandardCharsets.UTF_8)) {
                statement.executeUpdate(insert);
            }
        }
        try (SqliteTaskStores opened = SqliteTaskStores.open(existing)) {
            TaskStore store = opened.taskStore();
            assertEquals(expectedTasks, store.list(true));
            assertEquals(expectedRequests, List.of(store.findRequest(requestId(1)), store.findRequest(requestId(2))));
            assertEquals(
                    expectedEvents,
                    expectedTasks.stream()
                            .map(t -> store.events(t.id(), 0, 100))
                            .toList());
            assertEquals(List.of(taskId(3), taskId(4), taskId(5)), store.terminalCompletedBefore(T0.plusSeconds(27)));
        }
    }

    /** Tasks in every stored shape: queued, running with native ids, waiting, resolved, and each terminal kind. */
    private static void writeScenario(TaskStore store) {
        Task queued = Task.queued(
                taskId(1),
                RuntimeName.fromWire("codex").orElseThrow(),
                new WorkdirAlias("docs"),
                3,
                ".",
                TaskProfile.REVIEW,
                T0,
                T0.plus(Duration.ofHours(1)),
                Optional.of(taskId(5)),
                Optional.of(new CorrelationId("corr-1")),
                Optional.of(new IdempotencyKey("key-1")),
                Optional.of("cd".repeat(32)),
                manifest("m1"));
        store.insert(queued, 16);
        for (int n = 2; n <= 6; n++) {
            store.insert(queued(n), 16);
            Instant at = T0.plusSeconds(n);
            store.update(taskId(n), t -> t.starting(at.plusNanos(1_500)).running(at.plusMillis(7)));
        }
        store.update(
                taskId(2),
                t -> t.withNativeIds(new NativeIds(Optional.of("s-2"), Optional.of("t-2")), T0.plusSeconds(20)));
        store.openRequest(approvalRequest(1, taskId(2), T0.plusSeconds(21)));
        store.appendEvent(
                taskId(2), "approval.requested", "{\"request_id\":\"req_1\"}", T0.plusSeconds(21), MAX_EVENTS);

        store.openRequest(PendingRequest.open(
                requestId(2),
                taskId(3),
                InteractionKind.QUESTION,
                "{\"questions\":[]}",
                T0.plusSeconds(22),
                T0.plusSeconds(99)));
        store.resolveRequest(taskId(3), requestId(2), "{\"answers\":[]}", T0.plusSeconds(23));
        store.update(
                taskId(3),
                t -> t.succeeded(
                        new TaskResult("done 'quoted'", ResultStorage.INLINE, 15, "ef".repeat(32)), T0.plusSeconds(24)),
                t -> List.of(new NewEvent("task.completed", "{\"result_storage\":\"inline\"}", T0.plusSeconds(24))),
                MAX_EVENTS);
        store.update(
                taskId(4), t -> t.failed(ErrorCode.AGENT_PROVIDER_ERROR, "the provider failed", T0.plusSeconds(25)));
        store.update(
                taskId(5),
                t -> t.succeeded(new TaskResult("", ResultStorage.SPOOL, 70_000, "01".repeat(32)), T0.plusSeconds(26)));
        store.update(taskId(6), t -> t.interrupted(ErrorCode.BRIDGE_RESTARTED, "restarted", T0.plusSeconds(27)));
        store.update(taskId(6), t -> t);
        // Instants a looser formatter would spell differently: a whole second, trailing zeros, nanoseconds.
        for (String at :
                List.of("2026-01-02T04:00:00Z", "2026-01-02T04:00:00.120Z", "2026-01-02T04:00:00.000000999Z")) {
            store.appendEvent(taskId(2), "agent.message", "{}", Instant.parse(at), MAX_EVENTS);
        }
    }

    /** One INSERT per row, in key order, with every column's SQLite type preserved (text quoted, integers bare). */
    private static String dump(Path database) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + database);
                Statement statement = raw.createStatement()) {
            for (String table : TABLES) {
                try (ResultSet rows = statement.executeQuery("SELECT * FROM " + table + " ORDER BY 1")) {
                    ResultSetMetaData meta = rows.getMetaData();
                    List<String> columns = new ArrayList<>();
                    for (int c = 1; c <= meta.getColumnCount(); c++) {
                        columns.add(meta.getColumnName(c));
                    }
                    while (rows.next()) {
                        List<String> values = new ArrayList<>();
                        for (int c = 1; c <= columns.size(); c++) {
                            Object value = rows.getObject(c);
                            values.add(literal(value));
                        }
                        out.append("INSERT INTO ")
                                .append(table)
                                .append(" (")
                                .append(String.join(", ", columns))
                                .append(") VALUES (")
                                .append(String.join(", ", values))
                                .append(");\n");
                    }
                }
            }
        }
        return out.toString();
    }

    private static String literal(Object value) {
        return switch (value) {
            case null -> "NULL";
            case Integer i -> i.toString();
            case Long l -> l.toString();
            case String s when !s.contains("\n") -> "'" + s.replace("'", "''") + "'";
            default -> throw new IllegalStateException("unexpected stored value type " + value.getClass());
        };
    }
}
