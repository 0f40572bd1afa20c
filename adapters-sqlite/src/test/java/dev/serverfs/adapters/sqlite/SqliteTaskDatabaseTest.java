package dev.serverfs.adapters.sqlite;

import static dev.serverfs.adapters.sqlite.jooq.Tables.TASKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.security.auth.module.UnixSystem;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskStatus;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

class SqliteTaskDatabaseTest {

    @TempDir
    Path temp;

    @Test
    void open_creates_a_private_state_directory_and_private_database_files() throws Exception {
        Path stateDir = temp.resolve("nested/state");
        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(stateDir)) {
            db.write("test", dsl -> insertTask(dsl, "agt_000000000000000000000001", null));
            assertEquals("rwx------", mode(stateDir));
            assertEquals("rw-------", mode(stateDir.resolve("state.sqlite3")));
            Path wal = stateDir.resolve("state.sqlite3-wal");
            Path shm = stateDir.resolve("state.sqlite3-shm");
            assertTrue(Files.exists(wal), "WAL mode keeps a -wal file while connections are open");
            assertEquals("rw-------", mode(wal));
            assertEquals("rw-------", mode(shm));
        }
    }

    @Test
    void writer_connection_runs_in_wal_mode_with_foreign_keys_and_busy_timeout() {
        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(temp.resolve("state"))) {
            db.write("test", dsl -> {
                assertEquals("wal", dsl.fetchValue("PRAGMA journal_mode").toString());
                assertEquals("1", dsl.fetchValue("PRAGMA foreign_keys").toString());
                assertEquals("5000", dsl.fetchValue("PRAGMA busy_timeout").toString());
                return null;
            });
        }
    }

    @Test
    void open_refuses_a_state_directory_readable_by_group_or_others() throws Exception {
        Path stateDir = Files.createDirectory(temp.resolve("state"));
        Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("rwxr-x---"));
        ServerFsException e = assertThrows(ServerFsException.class, () -> SqliteTaskDatabase.open(stateDir));
        assertEquals(ErrorCode.CONFIGURATION_ERROR, e.code());
        assertFalse(Files.exists(stateDir.resolve("state.sqlite3")), "nothing is created in an unsafe directory");
    }

    @Test
    void open_refuses_a_symlinked_state_directory() throws Exception {
        Path real = Files.createDirectory(temp.resolve("real"));
        Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rwx------"));
        Path link = Files.createSymbolicLink(temp.resolve("state"), real);
        ServerFsException e = assertThrows(ServerFsException.class, () -> SqliteTaskDatabase.open(link));
        assertEquals(ErrorCode.CONFIGURATION_ERROR, e.code());
        assertFalse(e.getMessage().contains(temp.toString()), "messages never carry host paths");
    }

    @Test
    void open_refuses_a_database_file_that_is_a_symlink() throws Exception {
        Path stateDir = privateDirectory("state");
        Path elsewhere = Files.createFile(temp.resolve("elsewhere.sqlite3"));
        Files.createSymbolicLink(stateDir.resolve("state.sqlite3"), elsewhere);
        ServerFsException e = assertThrows(ServerFsException.class, () -> SqliteTaskDatabase.open(stateDir));
        assertEquals(ErrorCode.CONFIGURATION_ERROR, e.code());
        assertEquals(0, Files.size(elsewhere), "the symlink target is never opened");
    }

    @Test
    void open_refuses_a_wal_companion_that_is_a_symlink() throws Exception {
        Path stateDir = privateDirectory("state");
        Path elsewhere = Files.createFile(temp.resolve("elsewhere-wal"));
        Files.createSymbolicLink(stateDir.resolve("state.sqlite3-wal"), elsewhere);
        ServerFsException e = assertThrows(ServerFsException.class, () -> SqliteTaskDatabase.open(stateDir));
        assertEquals(ErrorCode.CONFIGURATION_ERROR, e.code());
    }

    @Test
    void open_refuses_a_state_directory_owned_by_another_user() throws Exception {
        assumeTrue(new UnixSystem().getUid() == 0, "only root can hand a directory to another uid (CI runs as root)");
        Path stateDir = privateDirectory("state");
        Files.setAttribute(stateDir, "unix:uid", 65534);
        ServerFsException e = assertThrows(ServerFsException.class, () -> SqliteTaskDatabase.open(stateDir));
        assertEquals(ErrorCode.CONFIGURATION_ERROR, e.code());
    }

    @Test
    void a_store_of_garbage_bytes_is_refused_with_a_clear_message_and_left_byte_for_byte_untouched() throws Exception {
        Path stateDir = Files.createDirectory(
                temp.resolve("state"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path database = stateDir.resolve("state.sqlite3");
        byte[] garbage = new byte[64 * 1024];
        new java.util.Random(24).nextBytes(garbage);
        Files.write(database, garbage);
        Files.setPosixFilePermissions(database, PosixFilePermissions.fromString("rw-------"));

        ServerFsException e = assertThrows(ServerFsException.class, () -> SqliteTaskDatabase.open(stateDir));
        assertEquals(ErrorCode.AGENT_RESULT_STORAGE_ERROR, e.code());
        assertEquals(
                "the task store is not a valid SQLite database (corrupt or another file); it was left untouched:"
                        + " move it aside or restore it from a backup",
                e.getMessage());
        assertTrue(java.util.Arrays.equals(garbage, Files.readAllBytes(database)), "the file is untouched");
        assertFalse(Files.exists(stateDir.resolve("state.sqlite3-wal")), "no WAL beside it");
    }

    @Test
    void a_store_whose_pages_were_overwritten_is_refused_as_not_valid_and_left_untouched() throws Exception {
        Path stateDir = temp.resolve("state");
        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(stateDir)) {
            db.write("test", dsl -> insertTask(dsl, "agt_000000000000000000000001", null));
        }
        Path database = stateDir.resolve("state.sqlite3");
        Files.deleteIfExists(stateDir.resolve("state.sqlite3-wal"));
        Files.deleteIfExists(stateDir.resolve("state.sqlite3-shm"));
        byte[] bytes = Files.readAllBytes(database);
        // The 100-byte header stays (so SQLite accepts the file), every page after the first is garbage.
        byte[] noise = new byte[bytes.length - 4096];
        new java.util.Random(7).nextBytes(noise);
        System.arraycopy(noise, 0, bytes, 4096, noise.length);
        Files.write(database, bytes);

        ServerFsException e = assertThrows(ServerFsException.class, () -> SqliteTaskDatabase.open(stateDir));
        assertEquals(ErrorCode.AGENT_RESULT_STORAGE_ERROR, e.code());
        assertTrue(e.getMessage().startsWith("the task store is not a valid SQLite database"), e.getMessage());
        assertTrue(java.util.Arrays.equals(bytes, Files.readAllBytes(database)), "the file is untouched");
    }

    @Test
    void every_write_transaction_begins_immediate_so_a_second_writer_waits_instead_of_deadlocking() throws Exception {
        Path stateDir = temp.resolve("state");
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(stateDir);
                Connection other = secondWriter(stateDir.resolve("state.sqlite3"), 200)) {
            CountDownLatch inTransaction = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            // The store's transaction only READS; with a deferred BEGIN it would hold no write lock yet.
            Future<Integer> holder = executor.submit(() -> db.write("test", dsl -> {
                int count = dsl.fetchCount(TASKS);
                inTransaction.countDown();
                await(release);
                return count;
            }));
            assertTrue(inTransaction.await(10, TimeUnit.SECONDS));

            // WAL readers are never blocked: the other connection can read outside a transaction...
            try (Statement statement = other.createStatement()) {
                statement.executeQuery("SELECT count(*) FROM tasks").close();
            }
            // ...but cannot begin a write transaction, because the store's read-only-so-far transaction already
            // holds the write lock: its BEGIN was IMMEDIATE. The refusal is SQLITE_BUSY after the busy timeout,
            // never a deadlock on a later lock upgrade.
            SQLException busy = assertThrows(SQLException.class, () -> {
                other.setAutoCommit(false);
                try (Statement statement = other.createStatement()) {
                    statement.executeQuery("SELECT count(*) FROM tasks").close();
                }
            });
            assertEquals(SQLiteErrorCode.SQLITE_BUSY, ((SQLiteException) busy).getResultCode());

            release.countDown();
            assertEquals(0, holder.get(10, TimeUnit.SECONDS));
            // Once the store commits, the other writer gets the lock and writes.
            try (Connection third = secondWriter(stateDir.resolve("state.sqlite3"), 200)) {
                third.setAutoCommit(false);
                try (Statement statement = third.createStatement()) {
                    statement.executeUpdate(insertSql("agt_000000000000000000000002"));
                }
                third.commit();
            }
            assertEquals((Integer) 1, db.read("test", dsl -> dsl.fetchCount(TASKS)));
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void a_second_writer_within_its_busy_timeout_waits_for_the_store_and_then_commits() throws Exception {
        Path stateDir = temp.resolve("state");
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(stateDir);
                Connection other = secondWriter(stateDir.resolve("state.sqlite3"), 30_000)) {
            CountDownLatch inTransaction = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Future<Void> holder = executor.submit(() -> db.write("test", dsl -> {
                insertTask(dsl, "agt_000000000000000000000001", null);
                inTransaction.countDown();
                await(release);
                return null;
            }));
            assertTrue(inTransaction.await(10, TimeUnit.SECONDS));
            Thread releaser = Thread.ofVirtual().start(release::countDown);
            other.setAutoCommit(false);
            try (Statement statement = other.createStatement()) {
                // Blocks in SQLite's busy handler until the store commits, then succeeds.
                statement.executeUpdate(insertSql("agt_000000000000000000000002"));
            }
            other.commit();
            releaser.join();
            holder.get(10, TimeUnit.SECONDS);
            assertEquals((Integer) 2, db.read("test", dsl -> dsl.fetchCount(TASKS)));
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void reopening_the_same_file_keeps_rows_and_applies_no_changeset_twice() {
        Path stateDir = temp.resolve("state");
        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(stateDir)) {
            db.write("test", dsl -> insertTask(dsl, "agt_000000000000000000000001", "key-1"));
        }
        int changesets;
        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(stateDir)) {
            changesets = db.read("test", dsl -> dsl.fetchCount(dsl.selectFrom("DATABASECHANGELOG")));
            assertEquals((Integer) 1, db.read("test", dsl -> dsl.fetchCount(TASKS)));
        }
        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(stateDir)) {
            assertEquals(
                    (Integer) changesets, db.read("test", dsl -> dsl.fetchCount(dsl.selectFrom("DATABASECHANGELOG"))));
            assertEquals(
                    "key-1",
                    db.read(
                            "test",
                            dsl -> dsl.select(TASKS.IDEMPOTENCY_KEY).from(TASKS).fetchOne(TASKS.IDEMPOTENCY_KEY)));
        }
    }

    @Test
    void stores_opened_concurrently_on_one_directory_in_one_process_all_open() throws Exception {
        Path stateDir = temp.resolve("state");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<SqliteTaskDatabase> opened = new CopyOnWriteArrayList<>();
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                futures.add(pool.submit(() -> {
                    await(start);
                    opened.add(SqliteTaskDatabase.open(stateDir));
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(120, TimeUnit.SECONDS);
            }
            assertEquals(4, opened.size());
        } finally {
            opened.forEach(SqliteTaskDatabase::close);
            pool.shutdownNow();
        }
    }

    @Test
    void a_changelog_lock_left_by_a_process_that_died_mid_migration_does_not_block_start_up() throws Exception {
        Path stateDir = temp.resolve("state");
        SqliteTaskDatabase.open(stateDir).close();
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + stateDir.resolve("state.sqlite3"));
                Statement statement = raw.createStatement()) {
            statement.executeUpdate("UPDATE DATABASECHANGELOGLOCK SET LOCKED = 1, LOCKEDBY = 'dead process'");
        }
        long started = System.nanoTime();
        SqliteTaskDatabase.open(stateDir).close();
        assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) < 60, "no lock wait");
    }

    @Test
    void an_up_to_date_store_opens_without_running_liquibase() throws Exception {
        Path stateDir = temp.resolve("state");
        SqliteTaskDatabase.open(stateDir).close();
        // Liquibase releases any changelog lock when it runs; a lock row it would release shows it did not run.
        setChangelogLock(stateDir, "LOCKED = 1, LOCKEDBY = 'sentinel'");
        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(stateDir)) {
            db.write("test", dsl -> insertTask(dsl, "agt_000000000000000000000001", "key-1"));
        }
        assertEquals("1 sentinel", changelogLock(stateDir));
    }

    @Test
    void a_store_missing_one_recorded_changeset_is_migrated_by_liquibase() throws Exception {
        Path stateDir = temp.resolve("state");
        SqliteTaskDatabase.open(stateDir).close();
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + stateDir.resolve("state.sqlite3"));
                Statement statement = raw.createStatement()) {
            statement.executeUpdate("DROP INDEX tasks_idempotency_key");
            statement.executeUpdate(
                    "DELETE FROM DATABASECHANGELOG WHERE ID = '20261130-03-create-idempotency-key-index'");
        }
        setChangelogLock(stateDir, "LOCKED = 1, LOCKEDBY = 'sentinel'");
        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(stateDir)) {
            List<String> indexes = db.read(
                    "test",
                    dsl -> dsl.fetch("SELECT name FROM sqlite_master WHERE name = 'tasks_idempotency_key'")
                            .getValues(0, String.class));
            assertEquals(List.of("tasks_idempotency_key"), indexes);
            assertEquals(
                    (Integer) 1,
                    db.read(
                            "test",
                            dsl -> dsl.fetchCount(dsl.selectFrom("DATABASECHANGELOG")
                                    .where("ID = '20261130-03-create-idempotency-key-index'"))));
        }
        assertEquals("0 null", changelogLock(stateDir), "Liquibase ran and released the lock");
    }

    @Test
    void the_changelog_reader_finds_every_changeset_of_the_real_changelog() throws Exception {
        var declared = AppliedChangelog.declared(LiquibaseMigration.CHANGELOG, AppliedChangelog::resource)
                .orElseThrow();
        Path stateDir = temp.resolve("state");
        SqliteTaskDatabase.open(stateDir).close();
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + stateDir.resolve("state.sqlite3"))) {
            // Exactly what Liquibase recorded: no more (a changeset the reader invented would never match) and no
            // fewer (a changeset it missed could be skipped).
            assertEquals(AppliedChangelog.applied(raw), declared);
        }
        assertEquals(7, declared.size());
    }

    @Test
    void a_store_of_the_earlier_schema_is_migrated_in_place_with_null_for_the_added_columns() throws Exception {
        Path stateDir = privateDirectory("state");
        Path file = stateDir.resolve("state.sqlite3");
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement statement = raw.createStatement()) {
            statement.executeUpdate(EarlierSchema.TASKS_V072);
            statement.executeUpdate("""
                    CREATE TABLE events (event_id INTEGER PRIMARY KEY AUTOINCREMENT,
                      task_id TEXT NOT NULL REFERENCES tasks(task_id) ON DELETE CASCADE, event_type TEXT NOT NULL,
                      payload_json TEXT NOT NULL, created_at TEXT NOT NULL)""");
            statement.executeUpdate("""
                    CREATE TABLE pending_requests (request_id TEXT PRIMARY KEY,
                      task_id TEXT NOT NULL REFERENCES tasks(task_id) ON DELETE CASCADE, kind TEXT NOT NULL,
                      status TEXT NOT NULL, payload_json TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT,
                      resolved_at TEXT, resolution_json TEXT)""");
            statement.executeUpdate("""
                    INSERT INTO tasks (task_id, runtime, workdir_alias, workdir_slot, relative_cwd, profile, status,
                      created_at, updated_at, completed_at)
                    VALUES ('agt_00000000000000000000000a', 'codex', 'docs', 1, '.', 'workspace-write', 'succeeded',
                      '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z')""");
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(stateDir)) {
            var historical = db.read("test", dsl -> dsl.selectFrom(TASKS).fetchOne());
            assertEquals(new TaskId("agt_00000000000000000000000a"), historical.getTaskId());
            assertNull(historical.getIdempotencyKey());
            assertNull(historical.getRequestFingerprint());
            List<String> indexes = db.read(
                    "test",
                    dsl -> dsl.fetch(
                                    "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
                            .getValues(0, String.class));
            assertEquals(List.of("events_task_cursor", "pending_requests_task", "tasks_idempotency_key"), indexes);
        }
    }

    @Test
    void the_partial_unique_index_allows_many_tasks_without_a_key_but_one_per_key() {
        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(temp.resolve("state"))) {
            db.write("test", dsl -> {
                insertTask(dsl, "agt_000000000000000000000001", null);
                insertTask(dsl, "agt_000000000000000000000002", null);
                insertTask(dsl, "agt_000000000000000000000003", "key-1");
                return null;
            });
            ServerFsException duplicate = assertThrows(
                    ServerFsException.class,
                    () -> db.write("test", dsl -> insertTask(dsl, "agt_000000000000000000000004", "key-1")));
            assertEquals(ErrorCode.AGENT_RESULT_STORAGE_ERROR, duplicate.code());
            assertEquals((Integer) 3, db.read("test", dsl -> dsl.fetchCount(TASKS)));
        }
    }

    @Test
    void unique_violations_are_recognised_by_table_and_column() {
        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(temp.resolve("state"))) {
            db.write("test", dsl -> insertTask(dsl, "agt_000000000000000000000001", "key-1"));
            RuntimeException[] seen = new RuntimeException[2];
            db.write("test", dsl -> {
                seen[0] = assertThrows(
                        RuntimeException.class, () -> insertTask(dsl, "agt_000000000000000000000001", null));
                seen[1] = assertThrows(
                        RuntimeException.class, () -> insertTask(dsl, "agt_000000000000000000000002", "key-1"));
                return null;
            });
            assertTrue(SqliteFailures.isUniqueViolation(seen[0], "tasks.task_id"));
            assertFalse(SqliteFailures.isUniqueViolation(seen[0], "tasks.idempotency_key"));
            assertTrue(SqliteFailures.isUniqueViolation(seen[1], "tasks.idempotency_key"));
        }
    }

    @Test
    void read_only_open_of_a_missing_store_creates_nothing() {
        Path stateDir = temp.resolve("absent");
        assertTrue(SqliteTaskDatabase.openReadOnly(stateDir).isEmpty());
        assertFalse(Files.exists(stateDir, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void read_only_open_reads_but_refuses_writes() {
        Path stateDir = temp.resolve("state");
        try (SqliteTaskDatabase db = SqliteTaskDatabase.open(stateDir)) {
            db.write("test", dsl -> insertTask(dsl, "agt_000000000000000000000001", null));
        }
        try (SqliteTaskDatabase db = SqliteTaskDatabase.openReadOnly(stateDir).orElseThrow()) {
            assertEquals((Integer) 1, db.read("test", dsl -> dsl.fetchCount(TASKS)));
            ServerFsException e = assertThrows(
                    ServerFsException.class,
                    () -> db.write("test", dsl -> insertTask(dsl, "agt_000000000000000000000002", null)));
            assertEquals(ErrorCode.AGENT_RESULT_STORAGE_ERROR, e.code());
        }
    }

    private static void setChangelogLock(Path stateDir, String assignments) throws SQLException {
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + stateDir.resolve("state.sqlite3"));
                Statement statement = raw.createStatement()) {
            statement.executeUpdate("UPDATE DATABASECHANGELOGLOCK SET " + assignments);
        }
    }

    private static String changelogLock(Path stateDir) throws SQLException {
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + stateDir.resolve("state.sqlite3"));
                Statement statement = raw.createStatement();
                var rows = statement.executeQuery("SELECT LOCKED, LOCKEDBY FROM DATABASECHANGELOGLOCK")) {
            rows.next();
            return rows.getInt(1) + " " + rows.getString(2);
        }
    }

    private Path privateDirectory(String name) throws Exception {
        Path dir = Files.createDirectory(temp.resolve(name));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        return dir;
    }

    private static Connection secondWriter(Path file, int busyTimeoutMillis) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(busyTimeoutMillis);
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        return config.createConnection("jdbc:sqlite:" + file);
    }

    private static int insertTask(DSLContext dsl, String id, String idempotencyKey) {
        return dsl.insertInto(TASKS)
                .set(TASKS.TASK_ID, new TaskId(id))
                .set(TASKS.RUNTIME, RuntimeName.fromWire("codex").orElseThrow())
                .set(TASKS.WORKDIR_ALIAS, "docs")
                .set(TASKS.WORKDIR_SLOT, 1)
                .set(TASKS.RELATIVE_CWD, ".")
                .set(TASKS.PROFILE, TaskProfile.WORKSPACE_WRITE)
                .set(TASKS.STATUS, TaskStatus.QUEUED)
                .set(TASKS.CREATED_AT, Instant.parse("2026-01-01T00:00:00.000000Z"))
                .set(TASKS.UPDATED_AT, Instant.parse("2026-01-01T00:00:00.000000Z"))
                .set(TASKS.IDEMPOTENCY_KEY, idempotencyKey)
                .set(TASKS.REQUEST_FINGERPRINT, idempotencyKey == null ? null : "fp")
                .execute();
    }

    private static String insertSql(String id) {
        return "INSERT INTO tasks (task_id, runtime, workdir_alias, workdir_slot, relative_cwd, profile, status,"
                + " created_at, updated_at) VALUES ('" + id + "', 'codex', 'docs', 1, '.', 'workspace-write',"
                + " 'queued', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z')";
    }

    private static String mode(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("latch not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
