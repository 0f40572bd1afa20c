package dev.serverfs.adapters.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Decides, without Liquibase, whether every changeset of the changelog is already recorded as run in {@code
 * DATABASECHANGELOG}: then start-up skips Liquibase, whose service discovery and changelog parsing cost seconds on
 * a cold JVM. It only ever skips work, never applies anything. The changelog is read with SnakeYAML (the parser
 * Liquibase itself uses) in the one layout this project uses: a master of {@code include}s of YAML files of
 * {@code changeSet}s. Anything else (another format, {@code includeAll}, a property, a {@code runAlways} / {@code
 * runOnChange} changeset, a non-string id, a duplicate key) makes it answer "not known", and Liquibase runs.
 */
final class AppliedChangelog {

    /** A changeset as Liquibase identifies it: id, author and the changelog file's path as recorded. */
    record ChangeSetId(String id, String author, String file) {}

    private static final Set<String> INCLUDE_KEYS = Set.of("file", "relativeToChangelogFile");

    private AppliedChangelog() {}

    /** Whether the database already records every changeset of {@code master} (false when in any doubt). */
    static boolean upToDate(Connection connection, String master) throws SQLException {
        Optional<Set<ChangeSetId>> declared = declared(master, AppliedChangelog::resource);
        return declared.isPresent() && applied(connection).containsAll(declared.get());
    }

    /** The changesets {@code master} declares, or empty when the reader is not sure it understood all of it. */
    static Optional<Set<ChangeSetId>> declared(String master, Function<String, Optional<String>> resources) {
        String directory = master.contains("/") ? master.substring(0, master.lastIndexOf('/') + 1) : "";
        Set<ChangeSetId> out = new LinkedHashSet<>();
        try {
            for (Object entry : entries(resources.apply(master))) {
                Map<?, ?> include = single(entry, "include");
                boolean relative = Boolean.TRUE.equals(include.get("relativeToChangelogFile"));
                if (!(include.get("file") instanceof String file)
                        || !(file.endsWith(".yaml") || file.endsWith(".yml"))
                        || !INCLUDE_KEYS.containsAll(include.keySet())) {
                    return Optional.empty();
                }
                String path = relative ? directory + file : file;
                for (Object item : entries(resources.apply(path))) {
                    Map<?, ?> changeSet = single(item, "changeSet");
                    if (!(changeSet.get("id") instanceof String id)
                            || !(changeSet.get("author") instanceof String author)
                            || changeSet.containsKey("runAlways")
                            || changeSet.containsKey("runOnChange")
                            || !out.add(new ChangeSetId(id, author, path))) {
                        return Optional.empty();
                    }
                }
            }
        } catch (NotKnown | YAMLException e) {
            return Optional.empty();
        }
        return out.isEmpty() ? Optional.empty() : Optional.of(out);
    }

    /** The list under {@code databaseChangeLog} of one changelog file. */
    private static List<?> entries(Optional<String> text) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        Object root = new Yaml(new SafeConstructor(options)).load(text.orElseThrow(NotKnown::new));
        if (root instanceof Map<?, ?> map
                && map.size() == 1
                && map.get("databaseChangeLog") instanceof List<?> entries) {
            return entries;
        }
        throw new NotKnown();
    }

    /** The map under {@code key} of a one-key list entry ({@code - include: ...}, {@code - changeSet: ...}). */
    private static Map<?, ?> single(Object entry, String key) {
        if (entry instanceof Map<?, ?> map && map.size() == 1 && map.get(key) instanceof Map<?, ?> value) {
            return value;
        }
        throw new NotKnown();
    }

    /** The changelog is not in the shape this reader understands. */
    private static final class NotKnown extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotKnown() {
            super(null, null, false, false);
        }
    }

    /** The changesets recorded as run ({@code EXECUTED}, {@code MARK_RAN}, {@code RERAN}); empty for a new file. */
    static Set<ChangeSetId> applied(Connection connection) throws SQLException {
        Set<ChangeSetId> out = new HashSet<>();
        try (Statement statement = connection.createStatement()) {
            try (ResultSet table = statement.executeQuery(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'DATABASECHANGELOG'")) {
                if (!table.next()) {
                    return out;
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT ID, AUTHOR, FILENAME FROM DATABASECHANGELOG"
                    + " WHERE EXECTYPE IN ('EXECUTED', 'MARK_RAN', 'RERAN')")) {
                while (rows.next()) {
                    out.add(new ChangeSetId(rows.getString(1), rows.getString(2), rows.getString(3)));
                }
            }
        }
        return out;
    }

    /** A classpath resource as UTF-8 text; empty when absent. */
    static Optional<String> resource(String path) {
        try (InputStream in = AppliedChangelog.class.getClassLoader().getResourceAsStream(path)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
