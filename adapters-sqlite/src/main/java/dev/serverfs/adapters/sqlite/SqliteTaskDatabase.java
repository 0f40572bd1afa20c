package dev.serverfs.adapters.sqlite;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * The open task database (reference §5, ARCHITECTURE.md §3.5): one long-lived writer connection ({@code
 * journal_mode=WAL}, {@code foreign_keys=ON}, {@code busy_timeout=5000}, every transaction {@code BEGIN
 * IMMEDIATE}) used by one thread at a time, and one read-only connection for readers, which WAL lets run beside
 * the writer. Each unit of work runs in one transaction; failures leave it as {@code ServerFsException}.
 */
final class SqliteTaskDatabase implements AutoCloseable {

    static final int BUSY_TIMEOUT_MILLIS = 5000;

    private static final Logger log = LoggerFactory.getLogger(SqliteTaskDatabase.class);

    private static final ReentrantLock MIGRATION = new ReentrantLock();

    static {
        // jOOQ prints a banner and tips on first use; neither belongs in JSON logs.
        System.setProperty("org.jooq.no-logo", "true");
        System.setProperty("org.jooq.no-tips", "true");
    }

    private final Optional<Connection> writerConnection;
    private final Optional<DSLContext> writer;
    private final Connection readerConnection;
    private final DSLContext reader;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final ReentrantLock readLock = new ReentrantLock();

    private SqliteTaskDatabase(Optional<Connection> writerConnection, Connection readerConnection) {
        this.writerConnection = writerConnection;
        this.writer = writerConnection.map(SqliteTaskDatabase::dsl);
        this.readerConnection = readerConnection;
        this.reader = dsl(readerConnection);
    }

    /**
     * Opens (creating when missing) the store in {@code stateDirectory} and migrates it to the current schema
     * (Liquibase runs only when {@link AppliedChangelog} does not find every changeset recorded already).
     * Unsafe directory or files → {@code CONFIGURATION_ERROR}; a database that cannot be opened or migrated →
     * {@code AGENT_RESULT_STORAGE_ERROR}.
     */
    static SqliteTaskDatabase open(Path stateDirectory) {
        StateDirectory state = StateDirectory.prepare(stateDirectory);
        Path database = state.privateFile(state.database());
        Path migrationLock = state.privateFile(state.migrationLock());
        Connection writer = null;
        Connection reader = null;
        // The file lock excludes other processes; this one excludes other threads of this JVM, for which a second
        // FileChannel.lock would throw, and serialises Liquibase's process-global lock bookkeeping.
        MIGRATION.lock();
        try (FileChannel channel = FileChannel.open(migrationLock, StandardOpenOption.WRITE);
                FileLock _ = channel.lock()) {
            writer = writerConfig().createConnection(url(database));
            state.restrictCompanions();
            // Liquibase (seconds of class loading and discovery on a cold JVM) only when a changeset is missing.
            boolean current = AppliedChangelog.upToDate(writer, LiquibaseMigration.CHANGELOG);
            if (!current) {
                LiquibaseMigration.migrate(writer);
            }
            writer.setAutoCommit(true);
            reader = readerConfig().createConnection(url(database));
            state.restrictCompanions();
            log.atInfo().setMessage("task_store_opened").log();
            log.atDebug()
                    .setMessage("task_store_schema")
                    .addKeyValue("migration", current ? "skipped_up_to_date" : "liquibase")
                    .log();
            return new SqliteTaskDatabase(Optional.of(writer), reader);
        } catch (Exception e) {
            closeQuietly(reader);
            closeQuietly(writer);
            throw SqliteFailures.opening(e);
        } finally {
            MIGRATION.unlock();
        }
    }

    /**
     * Opens an existing store read-only for operators: never creates, migrates or writes anything. Empty when
     * the state directory or its database does not exist.
     */
    static Optional<SqliteTaskDatabase> openReadOnly(Path stateDirectory) {
        Optional<StateDirectory> existing = StateDirectory.existing(stateDirectory);
        if (existing.isEmpty()) {
            return Optional.empty();
        }
        StateDirectory state = existing.get();
        try {
            Connection reader = readerConfig().createConnection(url(state.database()));
            state.restrictCompanions();
            return Optional.of(new SqliteTaskDatabase(Optional.empty(), reader));
        } catch (SQLException e) {
            throw SqliteFailures.storage("open_read_only", e);
        }
    }

    /**
     * Runs {@code work} in one write transaction ({@code BEGIN IMMEDIATE}, so it holds SQLite's write lock from
     * its first statement and can never deadlock upgrading a read lock). A {@code ServerFsException} thrown by
     * the work rolls back and propagates unchanged.
     */
    <T> T write(String operation, Function<DSLContext, T> work) {
        DSLContext dsl = writer.orElseThrow(
                () -> new ServerFsException(ErrorCode.AGENT_RESULT_STORAGE_ERROR, "the task store is open read-only"));
        writeLock.lock();
        try {
            // No chmod per write: the companions were checked after connecting, and SQLite creates a later -wal or
            // -shm with the database file's own mode (0600).
            return dsl.transactionResult(configuration -> work.apply(configuration.dsl()));
        } catch (ServerFsException e) {
            throw e;
        } catch (RuntimeException e) {
            throw SqliteFailures.storage(operation, e);
        } finally {
            writeLock.unlock();
        }
    }

    /** Runs {@code work} in one read transaction on the read-only connection (one consistent WAL snapshot). */
    <T> T read(String operation, Function<DSLContext, T> work) {
        readLock.lock();
        try {
            return reader.transactionResult(configuration -> work.apply(configuration.dsl()));
        } catch (ServerFsException e) {
            throw e;
        } catch (RuntimeException e) {
            throw SqliteFailures.storage(operation, e);
        } finally {
            readLock.unlock();
        }
    }

    @Override
    public void close() {
        writeLock.lock();
        readLock.lock();
        try {
            closeQuietly(readerConnection);
            writerConnection.ifPresent(SqliteTaskDatabase::closeQuietly);
        } finally {
            readLock.unlock();
            writeLock.unlock();
        }
    }

    private static SQLiteConfig writerConfig() {
        SQLiteConfig config = new SQLiteConfig();
        // The file was created by StateDirectory with mode 0600; SQLite must never create it with the umask.
        config.resetOpenMode(SQLiteOpenMode.CREATE);
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.enforceForeignKeys(true);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        return config;
    }

    private static SQLiteConfig readerConfig() {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        config.setTransactionMode(SQLiteConfig.TransactionMode.DEFERRED);
        return config;
    }

    private static DSLContext dsl(Connection connection) {
        // Statement logging is off: bound values include final responses, which may quote file contents.
        return DSL.using(connection, SQLDialect.SQLITE, new Settings().withExecuteLogging(false));
    }

    private static String url(Path database) {
        return "jdbc:sqlite:" + database;
    }

    private static void closeQuietly(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            log.atDebug().setMessage("task_store_close_failed").setCause(e).log();
        }
    }
}
