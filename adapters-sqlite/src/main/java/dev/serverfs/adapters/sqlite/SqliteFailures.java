package dev.serverfs.adapters.sqlite;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Translates SQLite and jOOQ failures at the adapter edge: they never leave this module. Constraint violations
 * the store expects become their contract codes where they are caught; everything else is a storage failure
 * ({@code AGENT_RESULT_STORAGE_ERROR}) whose detail goes to the debug log only.
 */
final class SqliteFailures {

    private static final Logger log = LoggerFactory.getLogger(SqliteFailures.class);

    /** Base result code of SQLITE_CONSTRAINT; extended codes keep it in the low byte. */
    private static final int SQLITE_CONSTRAINT = 19;

    private static final int SQLITE_BUSY = 5;
    private static final int SQLITE_CORRUPT = 11;
    private static final int SQLITE_NOTADB = 26;

    private SqliteFailures() {}

    /** The SQLite result code behind {@code failure}, if any. */
    static Optional<SQLiteErrorCode> code(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLiteException sqlite) {
                return Optional.of(sqlite.getResultCode());
            }
        }
        return Optional.empty();
    }

    /**
     * True when {@code failure} is a UNIQUE or PRIMARY KEY violation on {@code table.column} (SQLite names the
     * column in its message: {@code UNIQUE constraint failed: tasks.task_id}).
     */
    static boolean isUniqueViolation(Throwable failure, String tableDotColumn) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLiteException sqlite
                    && (sqlite.getResultCode().code & 0xff) == SQLITE_CONSTRAINT
                    && sqlite.getMessage() != null
                    && sqlite.getMessage().contains("constraint failed: " + tableDotColumn)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A failure to open the store: as {@link #storage}, with a message an operator can act on when the file is not
     * a SQLite database or is corrupt (issue 24 item 7). The file is never repaired or replaced: that is the
     * operator's call.
     */
    static ServerFsException opening(Throwable failure) {
        ServerFsException e = storage("open", failure);
        boolean corrupt = code(failure)
                .map(c -> (c.code & 0xff) == SQLITE_CORRUPT || (c.code & 0xff) == SQLITE_NOTADB)
                .orElse(false);
        return corrupt
                ? new ServerFsException(
                        ErrorCode.AGENT_RESULT_STORAGE_ERROR,
                        "the task store is not a valid SQLite database (corrupt or another file); it was left"
                                + " untouched: move it aside or restore it from a backup")
                : e;
    }

    /** An unexpected failure: a stable code and a generic message for callers, the detail for the debug log. */
    static ServerFsException storage(String operation, Throwable failure) {
        if (failure instanceof ServerFsException known) {
            return known;
        }
        Optional<SQLiteErrorCode> code = code(failure);
        log.atWarn()
                .setMessage("task_store_failure")
                .addKeyValue("operation", operation)
                .addKeyValue("sqlite_code", code.map(Enum::name).orElse("none"))
                .log();
        log.atDebug().setMessage("task_store_failure_detail").setCause(failure).log();
        boolean busy = code.map(c -> (c.code & 0xff) == SQLITE_BUSY).orElse(false);
        return new ServerFsException(
                ErrorCode.AGENT_RESULT_STORAGE_ERROR, busy ? "the task store is busy" : "the task store failed");
    }
}
