package dev.serverfs.adapters.sqlite;

import static dev.serverfs.adapters.sqlite.jooq.Tables.TASKS;

import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.domain.task.TaskStatus;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jooq.Field;
import org.jooq.Record;

/**
 * The adapter's entry point: opens the SQLite task store in the Agent state directory (reference §5: {@code
 * state.sqlite3} in a private directory) and owns it until {@link #close()}. {@link #open} creates and migrates;
 * {@link #listReadOnly} is for operator tools and never creates, migrates or writes anything.
 */
public final class SqliteTaskStores implements AutoCloseable {

    /** The database file name inside the state directory, as in the reference. */
    public static final String DATABASE_FILE = StateDirectory.DATABASE_FILE;

    // The operator listing shows these columns as stored, without the converters: a row another version wrote stays
    // visible instead of failing the whole listing.
    private static final Field<String> RAW_TASK_ID = TASKS.TASK_ID.coerce(String.class);
    private static final Field<String> RAW_RUNTIME = TASKS.RUNTIME.coerce(String.class);
    private static final Field<String> RAW_PROFILE = TASKS.PROFILE.coerce(String.class);
    private static final Field<String> RAW_STATUS = TASKS.STATUS.coerce(String.class);

    private final SqliteTaskStore store;
    private final Optional<OwnerLock> owner;

    private SqliteTaskStores(SqliteTaskStore store, Optional<OwnerLock> owner) {
        this.store = store;
        this.owner = owner;
    }

    /**
     * Opens the store in {@code stateDirectory}, creating the directory ({@code 0700}) and database ({@code 0600})
     * when missing and migrating the schema. Unsafe directory or files → {@code CONFIGURATION_ERROR}; a database
     * that cannot be opened or migrated → {@code AGENT_RESULT_STORAGE_ERROR}.
     */
    public static SqliteTaskStores open(Path stateDirectory) {
        return new SqliteTaskStores(new SqliteTaskStore(SqliteTaskDatabase.open(stateDirectory)), Optional.empty());
    }

    /**
     * {@link #open}, for the one Agent service that owns the store's tasks (an embedded {@code serve} or {@code
     * serverfs bridge}): then claims the state directory with a {@code flock} held until {@link #close()}, so a
     * second service started on the same directory is refused ({@code CONFIGURATION_ERROR}) before its start-up
     * reconciliation could interrupt the live tasks of the first.
     */
    public static SqliteTaskStores openExclusive(Path stateDirectory) {
        // Opened first, so a store that cannot be opened is reported as such to every starter alike; claimed before
        // the caller reconciles anything.
        SqliteTaskStore store = new SqliteTaskStore(SqliteTaskDatabase.open(stateDirectory));
        try {
            return new SqliteTaskStores(store, Optional.of(OwnerLock.acquire(stateDirectory)));
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * Checks, creating nothing, that {@link #open} would accept {@code stateDirectory} (reference §5): an existing
     * directory is a private real directory of this user with regular database files; a missing one can be created.
     * Otherwise {@code CONFIGURATION_ERROR} with a message that names no path.
     */
    public static void verifyStateDirectory(Path stateDirectory) {
        StateDirectory.verify(stateDirectory);
    }

    /** The store; valid until {@link #close()}. Thread-safe. */
    public TaskStore taskStore() {
        return store;
    }

    @Override
    public void close() {
        try {
            store.close();
        } finally {
            owner.ifPresent(OwnerLock::close);
        }
    }

    /**
     * Lists tasks for operators, oldest first: only non-terminal ones unless {@code includeTerminal}. Opens the
     * database read-only and reads only columns every schema version has; a missing state directory, database or
     * table yields an empty list. An unsafe directory is still refused ({@code CONFIGURATION_ERROR}).
     */
    public static List<TaskSummary> listReadOnly(Path stateDirectory, boolean includeTerminal) {
        Optional<SqliteTaskDatabase> opened = SqliteTaskDatabase.openReadOnly(stateDirectory);
        if (opened.isEmpty()) {
            return List.of();
        }
        List<String> statuses = Arrays.stream(TaskStatus.values())
                .filter(s -> includeTerminal || !s.isTerminal())
                .map(TaskStatus::wire)
                .toList();
        try (SqliteTaskDatabase database = opened.get()) {
            return database.read("task_list_read_only", dsl -> {
                if (dsl.fetchCount(dsl.selectOne().from("sqlite_master").where("type = 'table' and name = 'tasks'"))
                        == 0) {
                    return List.of();
                }
                return dsl.select(
                                RAW_TASK_ID,
                                RAW_RUNTIME,
                                TASKS.WORKDIR_ALIAS,
                                RAW_PROFILE,
                                RAW_STATUS,
                                TASKS.CREATED_AT,
                                TASKS.COMPLETED_AT,
                                TASKS.ERROR_CODE)
                        .from(TASKS)
                        .where(includeTerminal ? RAW_STATUS.isNotNull() : RAW_STATUS.in(statuses))
                        .orderBy(TASKS.CREATED_AT, TASKS.TASK_ID)
                        .fetch(SqliteTaskStores::summary);
            });
        }
    }

    private static TaskSummary summary(Record row) {
        return new TaskSummary(
                row.get(RAW_TASK_ID),
                row.get(RAW_RUNTIME),
                row.get(TASKS.WORKDIR_ALIAS),
                row.get(RAW_PROFILE),
                row.get(RAW_STATUS),
                row.get(TASKS.CREATED_AT),
                Optional.ofNullable(row.get(TASKS.COMPLETED_AT)),
                Optional.ofNullable(row.get(TASKS.ERROR_CODE)));
    }

    /**
     * One task as an operator listing shows it. Wire strings are kept as stored so a row written by another
     * ServerFS version is still shown rather than rejected.
     */
    public record TaskSummary(
            String taskId,
            String runtime,
            String workdirAlias,
            String profile,
            String status,
            Instant createdAt,
            Optional<Instant> completedAt,
            Optional<String> errorCode) {
        public TaskSummary {
            Objects.requireNonNull(taskId, "taskId");
            Objects.requireNonNull(runtime, "runtime");
            Objects.requireNonNull(workdirAlias, "workdirAlias");
            Objects.requireNonNull(profile, "profile");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(createdAt, "createdAt");
            Objects.requireNonNull(completedAt, "completedAt");
            Objects.requireNonNull(errorCode, "errorCode");
        }
    }
}
