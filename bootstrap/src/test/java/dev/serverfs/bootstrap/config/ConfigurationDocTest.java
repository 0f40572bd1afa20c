package dev.serverfs.bootstrap.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/CONFIGURATION.md documents exactly the settings catalogue: one table row per global setting and per slot
 * suffix, with the catalogue's default (the backticked literal the default cell starts with; prose such as {@code
 * none}, {@code global} or {@code required} means no default) and its parse style's words in the parse cell.
 */
class ConfigurationDocTest {

    private static final Path DOC = Path.of("..", "docs", "CONFIGURATION.md");
    private static final Pattern NAME_IN_BACKTICKS = Pattern.compile("`([A-Z][A-Z0-9_]*)`");
    private static final Pattern LEADING_LITERAL = Pattern.compile("^`([^`]*)`");

    /** One documented name: its default as the doc states it, and the doc's parse cell. */
    private record Row(String defaultText, String parse) {}

    /** The rows of the doc's setting tables (header {@code | variable |} or {@code | suffix |}), by name. */
    private static Map<String, Row> rows() throws Exception {
        Map<String, Row> rows = new LinkedHashMap<>();
        boolean settingTable = false;
        for (String line : Files.readAllLines(DOC)) {
            if (!line.startsWith("|")) {
                settingTable = false;
                continue;
            }
            if (line.startsWith("| variable |") || line.startsWith("| suffix |")) {
                settingTable = true;
                continue;
            }
            if (!settingTable || !line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split("\\|");
            Matcher literal = LEADING_LITERAL.matcher(cells[2].strip());
            Row row = new Row(literal.find() ? literal.group(1) : "", cells[3].strip());
            Matcher m = NAME_IN_BACKTICKS.matcher(cells[1]);
            while (m.find()) {
                assertEquals(null, rows.put(m.group(1), row), m.group(1) + " has two rows in docs/CONFIGURATION.md");
            }
        }
        return rows;
    }

    private static List<Setting<?>> catalogue() {
        return java.util.stream.Stream.concat(Catalogue.GLOBAL.stream(), Catalogue.SLOT.stream())
                .toList();
    }

    @Test
    void the_doc_documents_exactly_the_catalogues_names() throws Exception {
        Set<String> names = new TreeSet<>();
        catalogue().forEach(s -> names.add(s.name()));
        assertTrue(names.size() >= 90, "expected the whole catalogue, found " + names);
        assertEquals(names, new TreeSet<>(rows().keySet()), "the names of docs/CONFIGURATION.md's setting tables");
    }

    @Test
    void the_doc_states_the_catalogues_defaults() throws Exception {
        Map<String, Row> rows = rows();
        for (Setting<?> s : catalogue()) {
            assertEquals(s.defaultText(), rows.get(s.name()).defaultText(), s.name() + ": documented default");
        }
    }

    @Test
    void the_doc_names_the_catalogues_parse_styles() throws Exception {
        Map<String, Row> rows = rows();
        for (Setting<?> s : catalogue()) {
            String parse = rows.get(s.name()).parse();
            assertTrue(
                    parse.contains(s.style().label()),
                    s.name() + ": the parse cell '" + parse + "' does not say '"
                            + s.style().label() + "'");
        }
    }
}
