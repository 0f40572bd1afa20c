package dev.serverfs.adapters.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.adapters.sqlite.AppliedChangelog.ChangeSetId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AppliedChangelogTest {

    private static final String MASTER = """
            # comment
            databaseChangeLog:
              - include:
                  file: one.yaml
                  relativeToChangelogFile: true
              - include:
                  file: db/two.yaml
            """;

    private static final String ONE = """
            databaseChangeLog:
              - changeSet:
                  id: a-1
                  author: serverfs
                  preConditions:
                    - onFail: MARK_RAN
                  changes:
                    - createTable:
                        columns:
                          - column: {name: id, type: TEXT}
              - changeSet:
                  id: 'a-2'
                  author: "serverfs"
                  changes:
                    - sql:
                        sql: >-
                          CREATE INDEX x ON t(c)
            """;

    private static final String TWO = """
            databaseChangeLog:
              - changeSet:
                  id: b-1
                  author: someone
            """;

    private static Optional<Set<ChangeSetId>> declared(Map<String, String> files) {
        return AppliedChangelog.declared("db/master.yaml", path -> Optional.ofNullable(files.get(path)));
    }

    @Test
    void reads_ids_authors_and_recorded_file_paths_of_included_block_style_changesets() {
        assertEquals(
                Optional.of(Set.of(
                        new ChangeSetId("a-1", "serverfs", "db/one.yaml"),
                        new ChangeSetId("a-2", "serverfs", "db/one.yaml"),
                        new ChangeSetId("b-1", "someone", "db/two.yaml"))),
                declared(Map.of("db/master.yaml", MASTER, "db/one.yaml", ONE, "db/two.yaml", TWO)));
    }

    @Test
    void anything_the_reader_does_not_understand_means_not_known() {
        List<Map<String, String>> doubtful = List.of(
                Map.of("db/master.yaml", MASTER, "db/one.yaml", ONE), // an included file is missing
                Map.of("db/master.yaml", MASTER.replace("- include:", "- includeAll:"), "db/one.yaml", ONE),
                Map.of("db/master.yaml", MASTER.replace("one.yaml", "one.xml"), "db/one.xml", ONE, "db/two.yaml", TWO),
                Map.of(
                        "db/master.yaml",
                        MASTER,
                        "db/one.yaml",
                        ONE.replace("author: serverfs\n", "runOnChange: true\n      author: serverfs\n"),
                        "db/two.yaml",
                        TWO),
                Map.of(
                        "db/master.yaml",
                        MASTER,
                        "db/one.yaml",
                        ONE.replace("author: serverfs\n", "runAlways: true\n      author: serverfs\n"),
                        "db/two.yaml",
                        TWO),
                Map.of(
                        "db/master.yaml",
                        MASTER,
                        "db/one.yaml",
                        ONE,
                        "db/two.yaml",
                        "databaseChangeLog:\n  - changeSet: {id: 7, author: x}\n"),
                Map.of(
                        "db/master.yaml",
                        MASTER,
                        "db/one.yaml",
                        ONE,
                        "db/two.yaml",
                        TWO.replace("  author: someone\n", "")),
                Map.of("db/master.yaml", MASTER, "db/one.yaml", ONE, "db/two.yaml", TWO + "      id: b-2\n"),
                Map.of("db/master.yaml", MASTER, "db/one.yaml", ONE, "db/two.yaml", TWO + "  - changeSet:\n"),
                Map.of("db/master.yaml", MASTER, "db/one.yaml", ONE, "db/two.yaml", "databaseChangeLog: [\n"),
                Map.of(
                        "db/master.yaml",
                        MASTER + "  - property:\n      name: x\n",
                        "db/one.yaml",
                        ONE,
                        "db/two.yaml",
                        TWO),
                Map.of("db/master.yaml", "databaseChangeLog:\n", "db/one.yaml", ONE));
        for (Map<String, String> files : doubtful) {
            assertTrue(declared(files).isEmpty(), files.toString());
        }
    }
}
