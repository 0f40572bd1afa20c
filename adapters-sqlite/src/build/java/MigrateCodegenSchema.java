import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import liquibase.Scope;
import liquibase.command.CommandScope;
import liquibase.resource.DirectoryResourceAccessor;
import liquibase.ui.LoggerUIService;

/**
 * Build step, run by the source launcher before compilation: applies the task-store changelog to a fresh
 * throw-away SQLite file, from which jOOQ then generates its classes. Arguments: the resources root that
 * holds {@code db/changelog}, and the database file to (re)create.
 */
public final class MigrateCodegenSchema {

    private MigrateCodegenSchema() {}

    public static void main(String[] args) throws Exception {
        Path resources = Path.of(args[0]);
        Path database = Path.of(args[1]);
        Files.createDirectories(database.getParent());
        Files.deleteIfExists(database);
        Logger.getLogger("").setLevel(Level.WARNING);
        Map<String, Object> scope = Map.of(
                Scope.Attr.resourceAccessor.name(), new DirectoryResourceAccessor(resources),
                Scope.Attr.ui.name(), new LoggerUIService(),
                "liquibase.analytics.enabled", false,
                "liquibase.showSummary", "OFF",
                "liquibase.showSummaryOutput", "LOG");
        Scope.child(scope, () -> new CommandScope("update")
                .setOutput(OutputStream.nullOutputStream())
                .addArgumentValue("url", "jdbc:sqlite:" + database)
                .addArgumentValue("changelogFile", "db/changelog/db.changelog-master.yaml")
                .execute());
    }
}
