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
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides, without Liquibase, whether every changeset of the changelog is already recorded as run in {@code
 * DATABASECHANGELOG}: then start-up skips Liquibase, whose service discovery and changelog parsing cost seconds on
 * a cold JVM. It only ever skips work, never applies anything. The changelog is read by a deliberately narrow line
 * reader of the YAML layout this project uses (a master of {@code include}s, files of block-style {@code
 * changeSet}s); anything else it meets (another format, {@code includeAll}, a flow-style or {@code runAlways} /
 * {@code runOnChange} changeset, an unknown key) makes it answer "not known", and Liquibase runs as before.
 */
final class AppliedChangelog {

    /** A changeset as Liquibase identifies it: id, author and the changelog file's path as recorded. */
    record ChangeSetId(String id, String author, String file) {}

    private static final Pattern KEY_VALUE = Pattern.compile("^( *)(-\\s+)?([A-Za-z]+):\\s*(.*)$");
    private static final Pattern CHANGE_SET = Pattern.compile("^ *- changeSet:\\s*$");
    private static final Pattern PLAIN_VALUE = Pattern.compile("^[A-Za-z0-9._/-]+$");

    private AppliedChangelog() {}

    /** Whether the database already records every changeset of {@code master} (false when in any doubt). */
    static boolean upToDate(Connection connection, String master) throws SQLException {
        Optional<Set<ChangeSetId>> declared = declared(master, AppliedChangelog::resource);
        return declared.isPresent() && applied(connection).containsAll(declared.get());
    }

    /** The changesets {@code master} declares, or empty when the reader is not sure it understood every line. */
    static Optional<Set<ChangeSetId>> declared(String master, Function<String, Optional<String>> resources) {
        Optional<String> text = resources.apply(master);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        String directory = master.contains("/") ? master.substring(0, master.lastIndexOf('/') + 1) : "";
        Set<ChangeSetId> out = new LinkedHashSet<>();
        String file = null;
        boolean relative = false;
        boolean inInclude = false;
        for (String line : text.get().split("\n", -1)) {
            if (ignorable(line)) {
                continue;
            }
            Matcher m = KEY_VALUE.matcher(line.stripTrailing());
            if (!m.matches()) {
                return Optional.empty();
            }
            String key = m.group(3);
            String value = m.group(4);
            boolean item = m.group(2) != null;
            if (key.equals("databaseChangeLog") && m.group(1).isEmpty() && !item && value.isEmpty()) {
                continue;
            }
            if (key.equals("include") && item && value.isEmpty()) {
                if (inInclude && !addFile(out, directory, file, relative, resources)) {
                    return Optional.empty();
                }
                inInclude = true;
                file = null;
                relative = false;
            } else if (key.equals("file")
                    && inInclude
                    && !item
                    && file == null
                    && PLAIN_VALUE.matcher(value).matches()) {
                file = value;
            } else if (key.equals("relativeToChangelogFile") && inInclude && !item) {
                if (!value.equals("true") && !value.equals("false")) {
                    return Optional.empty();
                }
                relative = value.equals("true");
            } else {
                return Optional.empty();
            }
        }
        if (!inInclude || !addFile(out, directory, file, relative, resources)) {
            return Optional.empty();
        }
        return out.isEmpty() ? Optional.empty() : Optional.of(out);
    }

    private static boolean addFile(
            Set<ChangeSetId> out,
            String directory,
            String file,
            boolean relative,
            Function<String, Optional<String>> resources) {
        if (file == null || !(file.endsWith(".yaml") || file.endsWith(".yml"))) {
            return false;
        }
        String path = relative ? directory + file : file;
        Optional<String> text = resources.apply(path);
        if (text.isEmpty()) {
            return false;
        }
        Optional<Set<ChangeSetId>> changeSets = changeSets(path, text.get());
        changeSets.ifPresent(out::addAll);
        return changeSets.isPresent();
    }

    /** The changesets of one changelog file: each {@code - changeSet:} block with exactly one id and author. */
    static Optional<Set<ChangeSetId>> changeSets(String path, String text) {
        Set<ChangeSetId> out = new LinkedHashSet<>();
        int keyIndent = -1;
        String id = null;
        String author = null;
        boolean sawChangeLog = false;
        for (String line : text.split("\n", -1)) {
            if (ignorable(line)) {
                continue;
            }
            String trimmed = line.stripTrailing();
            if (trimmed.equals("databaseChangeLog:")) {
                if (sawChangeLog) {
                    return Optional.empty();
                }
                sawChangeLog = true;
                continue;
            }
            if (trimmed.contains("changeSet")) {
                if (!CHANGE_SET.matcher(trimmed).matches() || !sawChangeLog) {
                    return Optional.empty();
                }
                if (keyIndent >= 0 && !add(out, id, author, path)) {
                    return Optional.empty();
                }
                keyIndent = trimmed.indexOf("changeSet") + 2;
                id = null;
                author = null;
                continue;
            }
            if (keyIndent < 0) {
                return Optional.empty();
            }
            int indent = line.length() - line.stripLeading().length();
            if (indent < keyIndent) {
                return Optional.empty();
            }
            if (indent > keyIndent) {
                continue;
            }
            Matcher m = KEY_VALUE.matcher(trimmed);
            if (!m.matches() || m.group(2) != null) {
                return Optional.empty();
            }
            String key = m.group(3);
            String value = unquote(m.group(4));
            switch (key) {
                case "id" -> {
                    if (id != null || value == null) {
                        return Optional.empty();
                    }
                    id = value;
                }
                case "author" -> {
                    if (author != null || value == null) {
                        return Optional.empty();
                    }
                    author = value;
                }
                // Changesets Liquibase runs again although recorded: this reader cannot judge them.
                case "runAlways", "runOnChange" -> {
                    return Optional.empty();
                }
                default -> {
                    // Other attributes (preConditions, changes, comment, ...) do not change what is recorded.
                }
            }
        }
        if (keyIndent < 0 || !add(out, id, author, path)) {
            return Optional.empty();
        }
        return Optional.of(out);
    }

    private static boolean add(Set<ChangeSetId> out, String id, String author, String path) {
        return id != null && author != null && out.add(new ChangeSetId(id, author, path));
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

    private static boolean ignorable(String line) {
        String stripped = line.strip();
        return stripped.isEmpty() || stripped.startsWith("#");
    }

    /** A plain or simply quoted scalar; null for anything fancier (flow collections, escapes, comments). */
    private static String unquote(String value) {
        String v = value.strip();
        if (v.length() >= 2 && ((v.startsWith("'") && v.endsWith("'")) || (v.startsWith("\"") && v.endsWith("\"")))) {
            v = v.substring(1, v.length() - 1);
        }
        return PLAIN_VALUE.matcher(v).matches() ? v : null;
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
