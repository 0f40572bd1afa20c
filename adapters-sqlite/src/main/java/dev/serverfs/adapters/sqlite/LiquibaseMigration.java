package dev.serverfs.adapters.sqlite;

import java.io.OutputStream;
import java.sql.Connection;
import java.util.Map;
import java.util.logging.Level;
import liquibase.Scope;
import liquibase.command.CommandScope;
import liquibase.command.core.UpdateCommandStep;
import liquibase.command.core.helpers.DbUrlConnectionArgumentsCommandStep;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.lockservice.LockServiceFactory;
import liquibase.logging.Logger;
import liquibase.logging.core.AbstractLogService;
import liquibase.logging.core.AbstractLogger;
import liquibase.resource.ClassLoaderResourceAccessor;
import liquibase.ui.LoggerUIService;
import org.slf4j.LoggerFactory;

/**
 * Applies the task-store changelog ({@code db/changelog/db.changelog-master.yaml}) on an open connection at
 * every start-up; applied changesets are skipped, so it is repeatable. Liquibase's anonymous analytics are off,
 * its console output and logging go to SLF4J at debug level (its messages may carry the database URL, a host
 * path).
 */
final class LiquibaseMigration {

    static final String CHANGELOG = "db/changelog/db.changelog-master.yaml";

    private LiquibaseMigration() {}

    /**
     * Migrates the database behind {@code connection} without closing it. The caller holds the process-exclusive
     * migration lock, so a changelog lock row left behind by a process that died mid-migration is stale and is
     * released first instead of blocking start-up for minutes.
     */
    static void migrate(Connection connection) throws Exception {
        Map<String, Object> scope = Map.of(
                Scope.Attr.resourceAccessor.name(),
                new ClassLoaderResourceAccessor(LiquibaseMigration.class.getClassLoader()),
                Scope.Attr.ui.name(),
                new LoggerUIService(),
                Scope.Attr.logService.name(),
                new Slf4jLogService(),
                "liquibase.analytics.enabled",
                Boolean.FALSE,
                "liquibase.showSummary",
                "OFF",
                "liquibase.showSummaryOutput",
                "LOG");
        Scope.child(scope, () -> {
            Database database =
                    DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection));
            LockServiceFactory.getInstance().getLockService(database).forceReleaseLock();
            new CommandScope(UpdateCommandStep.COMMAND_NAME)
                    .setOutput(OutputStream.nullOutputStream())
                    .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, database)
                    .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG, CHANGELOG)
                    .execute();
            LockServiceFactory.getInstance().resetAll();
        });
    }

    /** Liquibase logging routed to SLF4J, all at debug: start-up logs stay JSON lines without host paths. */
    private static final class Slf4jLogService extends AbstractLogService {
        @Override
        public int getPriority() {
            return PRIORITY_SPECIALIZED;
        }

        @Override
        @SuppressWarnings("rawtypes") // Liquibase's signature
        public Logger getLog(Class clazz) {
            return new Slf4jLogger(LoggerFactory.getLogger(clazz));
        }
    }

    private static final class Slf4jLogger extends AbstractLogger {
        private final org.slf4j.Logger delegate;

        Slf4jLogger(org.slf4j.Logger delegate) {
            this.delegate = delegate;
        }

        @Override
        public void log(Level level, String message, Throwable e) {
            if (level != Level.OFF && delegate.isDebugEnabled()) {
                delegate.debug(message, e);
            }
        }

        @Override
        public void close() {}
    }
}
