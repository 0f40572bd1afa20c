package dev.serverfs.adapters.sqlite;

import static dev.serverfs.application.testing.TaskFixtures.T0;
import static dev.serverfs.application.testing.TaskFixtures.approvalRequest;
import static dev.serverfs.application.testing.TaskFixtures.queued;
import static dev.serverfs.application.testing.TaskFixtures.taskId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.out.InsertOutcome;
import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskEvent;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** SQLite-specific guarantees beyond the shared contract: cross-connection atomicity, cascade, restart, history. */
class SqliteTaskStoreTest {

    private static final int MAX_EVENTS = 10_000;

    @TempDir
    Path temp;

    @Test
    void fifty_concurrent_inserts_of_one_key_through_two_connections_leave_exactly_one_row() throws Exception {
        Path stateDir = temp.resolve("state");
        try (SqliteTaskStores first = SqliteTaskStores.open(stateDir);
                SqliteTaskStores second = SqliteTaskStores.open(stateDir)) {
            List<InsertOutcome> outcomes = concurrently(
                    50,
                    i -> (i % 2 == 0 ? first : second).taskStore().insert(queued(i + 1, Optional.of("same-key")), 100));
            long created = outcomes.stream()
                    .filter(InsertOutcome.Created.class::isInstance)
                    .count();
            assertEquals(1, created);
            TaskId winner = outcomes.stream()
                    .filter(InsertOutcome.Created.class::isInstance)
                    .findFirst()
                    .orElseThrow()
                    .task()
                    .id();
            assertTrue(outcomes.stream().allMatch(o -> o.task().id().equals(winner)));
            assertEquals(1, count(stateDir, "SELECT count(*) FROM tasks"));
        }
    }

    @Test
    void the_event_cap_holds_under_concurrent_appends() throws Exception {
        try (SqliteTaskStores opened = SqliteTaskStores.open(temp.resolve("state"))) {
            TaskStore store = opened.taskStore();
            Task task = insertRunning(store, 1);
            List<Object> outcomes = concurrently(50, i -> {
                try {
                    return store.appendEvent(task.id(), "agent.message", "{}", T0, 20);
                } catch (ServerFsException e) {
                    return e.code();
                }
            });
            assertEquals(
                    20, outcomes.stream().filter(TaskEvent.class::isInstance).count());
            assertEquals(
                    30,
                    outcomes.stream()
                            .filter(ErrorCode.AGENT_EVENT_LIMIT_REACHED::equals)
                            .count());
            assertEquals(20, store.find(task.id()).orElseThrow().eventCount());
            assertEquals(20, store.events(task.id(), 0, 500).size());
        }
    }

    @Test
    void deleting_a_terminal_task_cascades_to_its_events_and_requests_and_spares_other_tasks() throws Exception {
        Path stateDir = temp.resolve("state");
        try (SqliteTaskStores opened = SqliteTaskStores.open(stateDir)) {
            TaskStore store = opened.taskStore();
            Task done = insertRunning(store, 1);
            store.appendEvent(done.id(), "task.started", "{}", T0, MAX_EVENTS);
            store.openRequest(approvalRequest(1, done.id(), T0));
            store.update(done.id(), t -> t.cancelled(T0.plusSeconds(5)));
            Task live = insertRunning(store, 2);
            store.appendEvent(live.id(), "task.started", "{}", T0, MAX_EVENTS);
            store.openRequest(approvalRequest(2, live.id(), T0));

            assertFalse(store.deleteTerminal(live.id()), "GC never deletes a non-terminal task");
            assertTrue(store.deleteTerminal(done.id()));

            assertEquals(1, count(stateDir, "SELECT count(*) FROM tasks"));
            assertEquals(1, count(stateDir, "SELECT count(*) FROM events"));
            assertEquals(1, count(stateDir, "SELECT count(*) FROM pending_requests"));
            assertEquals(
                    0,
                    count(
                            stateDir,
                            "SELECT count(*) FROM events WHERE task_id = '" + done.id() + "' UNION ALL"
                                    + " SELECT count(*) FROM pending_requests WHERE task_id = '" + done.id() + "'"));
        }
    }

    @Test
    void a_restart_keeps_every_row_and_never_reuses_an_event_id() {
        Path stateDir = temp.resolve("state");
        TaskEvent last;
        Task kept;
        try (SqliteTaskStores opened = SqliteTaskStores.open(stateDir)) {
            TaskStore store = opened.taskStore();
            Task gone = insertRunning(store, 1);
            kept = insertRunning(store, 2);
            store.appendEvent(kept.id(), "task.started", "{}", T0, MAX_EVENTS);
            last = store.appendEvent(gone.id(), "task.started", "{}", T0, MAX_EVENTS);
            store.update(gone.id(), t -> t.cancelled(T0.plusSeconds(1)));
            assertTrue(store.deleteTerminal(gone.id()));
        }
        try (SqliteTaskStores reopened = SqliteTaskStores.open(stateDir)) {
            TaskStore store = reopened.taskStore();
            Task afterRestart = store.find(kept.id()).orElseThrow();
            assertEquals(TaskStatus.RUNNING, afterRestart.status());
            assertEquals(1, afterRestart.eventCount());
            TaskEvent next = store.appendEvent(kept.id(), "agent.message", "{}", T0, MAX_EVENTS);
            assertTrue(next.eventId() > last.eventId(), "event ids are global and monotonic across GC and restart");
        }
    }

    @Test
    void timestamps_are_stored_as_utc_microsecond_text_with_z() throws Exception {
        Path stateDir = temp.resolve("state");
        try (SqliteTaskStores opened = SqliteTaskStores.open(stateDir)) {
            opened.taskStore().insert(queued(1), 4);
        }
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + stateDir.resolve("state.sqlite3"));
                Statement statement = raw.createStatement();
                ResultSet row = statement.executeQuery("SELECT created_at, deadline_at FROM tasks")) {
            assertTrue(row.next());
            assertEquals("2026-01-02T03:04:06.123456Z", row.getString(1));
            assertEquals("2026-01-02T05:04:06.123456Z", row.getString(2));
        }
    }

    @Test
    void a_task_written_by_an_earlier_version_reads_with_no_idempotency_key_and_can_be_finished() throws Exception {
        Path stateDir = Files.createDirectory(temp.resolve("state"));
        Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("rwx------"));
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + stateDir.resolve("state.sqlite3"));
                Statement statement = raw.createStatement()) {
            statement.executeUpdate(EarlierSchema.TASKS_V072);
            statement.executeUpdate("""
                    INSERT INTO tasks (task_id, runtime, workdir_alias, workdir_slot, relative_cwd, profile, status,
                      created_at, started_at, updated_at, final_response)
                    VALUES ('agt_00000000000000000000000a', 'codex', 'docs', 1, '.', 'workspace-write', 'running',
                      '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:01.000000Z', '2026-01-01T00:00:01.000000Z',
                      NULL)""");
        }
        Files.setPosixFilePermissions(stateDir.resolve("state.sqlite3"), PosixFilePermissions.fromString("rw-------"));

        TaskId historical = new TaskId("agt_00000000000000000000000a");
        try (SqliteTaskStores opened = SqliteTaskStores.open(stateDir)) {
            TaskStore store = opened.taskStore();
            Task task = store.find(historical).orElseThrow();
            assertEquals(Optional.empty(), task.idempotencyKey());
            assertEquals(Optional.empty(), task.requestFingerprint());
            assertEquals(TaskStatus.RUNNING, task.status());
            Task interrupted =
                    store.update(historical, t -> t.interrupted(ErrorCode.BRIDGE_RESTARTED, "restarted", T0));
            assertEquals(Optional.of(interrupted), store.find(historical));
            assertEquals(
                    0,
                    count(
                            stateDir,
                            "SELECT count(*) FROM tasks WHERE idempotency_key IS NOT NULL"
                                    + " OR request_fingerprint IS NOT NULL"));
        }
    }

    @Test
    void read_only_listing_shows_non_terminal_tasks_by_default_and_everything_on_request() {
        Path stateDir = temp.resolve("state");
        try (SqliteTaskStores opened = SqliteTaskStores.open(stateDir)) {
            TaskStore store = opened.taskStore();
            store.insert(queued(2), 4);
            store.insert(queued(1), 4);
            store.update(taskId(2), t -> t.interrupted(ErrorCode.BRIDGE_RESTARTED, "restarted", T0.plusSeconds(9)));
        }
        List<SqliteTaskStores.TaskSummary> active = SqliteTaskStores.listReadOnly(stateDir, false);
        assertEquals(
                List.of(taskId(1).value()),
                active.stream().map(SqliteTaskStores.TaskSummary::taskId).toList());
        List<SqliteTaskStores.TaskSummary> all = SqliteTaskStores.listReadOnly(stateDir, true);
        assertEquals(2, all.size());
        SqliteTaskStores.TaskSummary interrupted = all.get(1);
        assertEquals("interrupted", interrupted.status());
        assertEquals(Optional.of("BRIDGE_RESTARTED"), interrupted.errorCode());
        assertEquals("fake", interrupted.runtime());
        assertEquals("docs", interrupted.workdirAlias());
        assertEquals("workspace-write", interrupted.profile());
    }

    @Test
    void a_row_no_serverfs_wrote_fails_with_the_storage_code_and_still_shows_in_the_operator_listing()
            throws Exception {
        Path stateDir = temp.resolve("state");
        try (SqliteTaskStores opened = SqliteTaskStores.open(stateDir)) {
            opened.taskStore().insert(queued(1), 4);
        }
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + stateDir.resolve("state.sqlite3"));
                Statement statement = raw.createStatement()) {
            statement.executeUpdate("UPDATE tasks SET status = 'paused'");
        }
        try (SqliteTaskStores opened = SqliteTaskStores.open(stateDir)) {
            TaskStore store = opened.taskStore();
            for (Executable call : List.<Executable>of(
                    () -> store.find(taskId(1)),
                    () -> store.list(true),
                    () -> store.update(taskId(1), t -> t.cancelled(T0)))) {
                ServerFsException e = assertThrows(ServerFsException.class, call);
                assertEquals(ErrorCode.AGENT_RESULT_STORAGE_ERROR, e.code());
            }
        }
        List<SqliteTaskStores.TaskSummary> listed = SqliteTaskStores.listReadOnly(stateDir, true);
        assertEquals(
                List.of("paused"),
                listed.stream().map(SqliteTaskStores.TaskSummary::status).toList());
    }

    @Test
    void read_only_listing_reads_an_earlier_schema_without_migrating_it() throws Exception {
        Path stateDir = Files.createDirectory(temp.resolve("state"));
        Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("rwx------"));
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + stateDir.resolve("state.sqlite3"));
                Statement statement = raw.createStatement()) {
            statement.executeUpdate("""
                    CREATE TABLE tasks (task_id TEXT PRIMARY KEY, runtime TEXT NOT NULL, workdir_alias TEXT NOT NULL,
                      workdir_slot INTEGER NOT NULL, relative_cwd TEXT NOT NULL, profile TEXT NOT NULL,
                      status TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
                      completed_at TEXT, error_code TEXT)""");
            statement.executeUpdate("""
                    INSERT INTO tasks (task_id, runtime, workdir_alias, workdir_slot, relative_cwd, profile, status,
                      created_at, updated_at)
                    VALUES ('agt_00000000000000000000000a', 'claude', 'docs', 1, '.', 'workspace-write', 'queued',
                      '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00')""");
        }
        Files.setPosixFilePermissions(stateDir.resolve("state.sqlite3"), PosixFilePermissions.fromString("rw-------"));

        List<SqliteTaskStores.TaskSummary> listed = SqliteTaskStores.listReadOnly(stateDir, false);
        assertEquals(1, listed.size());
        assertEquals("claude", listed.get(0).runtime());
        assertEquals(
                0,
                count(stateDir, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'DATABASECHANGELOG%'"),
                "the listing never migrates");
        assertEquals(
                0, count(stateDir, "SELECT count(*) FROM pragma_table_info('tasks') WHERE name = 'idempotency_key'"));
    }

    @Test
    void read_only_listing_of_a_missing_store_is_empty_and_creates_nothing() {
        Path stateDir = temp.resolve("absent");
        assertEquals(List.of(), SqliteTaskStores.listReadOnly(stateDir, true));
        assertFalse(Files.exists(stateDir));
    }

    @Test
    void read_only_listing_never_migrates_an_unmigrated_database() throws Exception {
        Path stateDir = Files.createDirectory(temp.resolve("state"));
        Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("rwx------"));
        Path file = stateDir.resolve("state.sqlite3");
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        assertEquals(List.of(), SqliteTaskStores.listReadOnly(stateDir, true));
        assertEquals(0, Files.size(file), "nothing was written into the database");
    }

    @Test
    void an_exclusive_store_refuses_a_second_owner_until_it_is_closed() {
        Path stateDir = temp.resolve("state");
        try (SqliteTaskStores owner = SqliteTaskStores.openExclusive(stateDir)) {
            ServerFsException refused =
                    assertThrows(ServerFsException.class, () -> SqliteTaskStores.openExclusive(stateDir));
            assertEquals(ErrorCode.CONFIGURATION_ERROR, refused.code());
            assertFalse(refused.getMessage().contains(stateDir.toString()), "no host path in the message");
            // readers and the operator listing are not owners
            SqliteTaskStores.listReadOnly(stateDir, true);
        }
        SqliteTaskStores.openExclusive(stateDir).close();
    }

    @Test
    void a_closed_store_fails_with_a_storage_code_not_a_sql_exception() {
        SqliteTaskStores opened = SqliteTaskStores.open(temp.resolve("state"));
        TaskStore store = opened.taskStore();
        opened.close();
        ServerFsException write = assertThrows(ServerFsException.class, () -> store.insert(queued(1), 4));
        assertEquals(ErrorCode.AGENT_RESULT_STORAGE_ERROR, write.code());
        ServerFsException read = assertThrows(ServerFsException.class, () -> store.find(taskId(1)));
        assertEquals(ErrorCode.AGENT_RESULT_STORAGE_ERROR, read.code());
    }

    private static Task insertRunning(TaskStore store, int n) {
        Task task = queued(n);
        assertInstanceOf(InsertOutcome.Created.class, store.insert(task, 100));
        return store.update(task.id(), t -> t.starting(T0).running(T0));
    }

    private static long count(Path stateDir, String sql) throws SQLException {
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + stateDir.resolve("state.sqlite3"));
                Statement statement = raw.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            long total = 0;
            while (rows.next()) {
                total += rows.getLong(1);
            }
            return total;
        }
    }

    private interface Call<T> {
        T call(int index) throws Exception;
    }

    private static <T> List<T> concurrently(int count, Call<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(count);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    start.await();
                    return call.call(index);
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                try {
                    results.add(future.get());
                } catch (ExecutionException e) {
                    throw new AssertionError("a concurrent call failed", e.getCause());
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
