package dev.serverfs.bootstrap.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code .env.example} lists exactly the variables the code reads, docs/CONFIGURATION.md documents and the compose
 * files interpolate, each under a one-line meaning and, when commented out, with the documented default, which is
 * also the loader's. Mechanical on purpose: a variable added to the loader, the docs or a compose file fails here
 * until the example has it.
 */
class EnvExampleTest {

    private static final Path ROOT = Path.of("..");
    private static final Path EXAMPLE = ROOT.resolve(".env.example");
    private static final Path DOC = ROOT.resolve("docs").resolve("CONFIGURATION.md");
    private static final List<Path> COMPOSE_FILES =
            List.of(ROOT.resolve("compose.yml"), ROOT.resolve("compose.agent.yml"));
    private static final Path BOOTSTRAP_SOURCES = Path.of("src", "main", "java");

    private static final Pattern ENTRY = Pattern.compile("^(#)?([A-Z][A-Z0-9_]*)=(.*)$");
    private static final Pattern SLOT = Pattern.compile("^WORKDIR_[0-9]{2}_");
    private static final Pattern NAME_IN_BACKTICKS = Pattern.compile("`([A-Z][A-Z0-9_]*)`");
    private static final Pattern LEADING_LITERAL = Pattern.compile("^`([^`]*)`");

    @TempDir
    Path tmp;

    /** One variable of the example: its value, whether it is commented out (a default) and its meaning line. */
    private record Entry(String name, String value, boolean commented, String meaning) {}

    @Test
    void every_entry_has_a_one_line_meaning_above_it_and_appears_once() throws IOException {
        Map<String, Entry> entries = entries();
        assertTrue(entries.size() >= 70, "expected the whole catalogue, found " + entries.size());
        for (Entry e : entries.values()) {
            assertTrue(e.meaning().length() > 10, e.name() + " has no meaning line");
        }
    }

    @Test
    void the_example_lists_what_the_code_reads_the_docs_document_and_compose_interpolates() throws IOException {
        Set<String> listed = slotOne(entries().keySet());
        Set<String> missing = new TreeSet<>();
        for (String name : required()) {
            if (!listed.contains(name)) {
                missing.add(name);
            }
        }
        assertEquals(Set.of(), missing, "variables missing from .env.example");
    }

    @Test
    void the_example_invents_nothing_and_misspells_nothing() throws IOException {
        Set<String> required = required();
        for (String name : slotOne(entries().keySet())) {
            assertTrue(required.contains(name), name + " is in .env.example but read, documented or used nowhere");
            if (name.startsWith("SERVERFS_")) {
                assertTrue(KnownVariables.NAMES.contains(name), name + " is not in KnownVariables");
            }
        }
    }

    @Test
    void a_commented_entry_shows_the_documented_default() throws IOException {
        Map<String, String> defaults = documentedDefaults();
        for (Entry e : entries().values()) {
            String documented = defaults.get(slotOne(e.name()));
            if (!e.commented() || documented == null) {
                continue;
            }
            assertEquals(
                    documented, e.value(), e.name() + ": the default in .env.example differs from CONFIGURATION.md");
        }
    }

    @Test
    void the_commented_defaults_are_the_loaders_defaults() throws Exception {
        Path workdir = Files.createDirectory(tmp.resolve("docs"));
        String slot = "WORKDIR_01_ALIAS=docs\nWORKDIR_01_PATH=" + workdir + "\n";
        StringBuilder spelledOut = new StringBuilder(slot);
        for (Entry e : entries().values()) {
            if (e.commented() && e.name().startsWith("SERVERFS_")) {
                spelledOut.append(e.name()).append('=').append(e.value()).append('\n');
            }
        }
        Path bare = Files.writeString(tmp.resolve("bare.env"), slot);
        Path withDefaults = Files.writeString(tmp.resolve("defaults.env"), spelledOut);
        assertEquals(
                ConfigLoader.load(Map.of(), Optional.of(bare)),
                ConfigLoader.load(Map.of(), Optional.of(withDefaults)),
                "uncommenting the defaults of .env.example changes the configuration");
    }

    /** Variables the example must list: read by bootstrap, documented in a table, interpolated by compose. */
    private static Set<String> required() throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> sources = Files.walk(BOOTSTRAP_SOURCES)) {
            for (Path source :
                    sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                if (source.getFileName().toString().equals("KnownVariables.java")) {
                    continue; // the catalogue of every reference name, LATER ones included, not what is read
                }
                Matcher m = Pattern.compile("\"(SERVERFS_[A-Z0-9_]+)\"").matcher(Files.readString(source));
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        for (String suffix : ConfigLoader.WORKDIR_SUFFIXES) {
            names.add("WORKDIR_01_" + suffix);
        }
        names.addAll(documentedDefaults().keySet());
        for (Path compose : COMPOSE_FILES) {
            Matcher m = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)").matcher(Files.readString(compose));
            while (m.find()) {
                names.add(slotOne(m.group(1)));
            }
        }
        return names;
    }

    /**
     * Each variable of a CONFIGURATION.md table (first cell; a bare workdir suffix means slot 01) with its default
     * as written in the example: the backticked literal the second cell starts with, or empty when that cell is
     * prose ({@code none}, {@code unset}, {@code global}, {@code required}, …).
     */
    private static Map<String, String> documentedDefaults() throws IOException {
        Map<String, String> defaults = new LinkedHashMap<>();
        for (String line : Files.readAllLines(DOC)) {
            if (!line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split("\\|");
            String defaultCell = cells.length > 2 ? cells[2].strip() : "";
            Matcher literal = LEADING_LITERAL.matcher(defaultCell);
            String value = literal.find() ? literal.group(1) : "";
            Matcher m = NAME_IN_BACKTICKS.matcher(cells[1]);
            while (m.find()) {
                String name =
                        ConfigLoader.WORKDIR_SUFFIXES.contains(m.group(1)) ? "WORKDIR_01_" + m.group(1) : m.group(1);
                defaults.putIfAbsent(name, value);
            }
        }
        return defaults;
    }

    private static Map<String, Entry> entries() throws IOException {
        List<String> lines = Files.readAllLines(EXAMPLE);
        Map<String, Entry> entries = new LinkedHashMap<>();
        List<String> stray = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = ENTRY.matcher(lines.get(i));
            if (!m.matches()) {
                if (!lines.get(i).isBlank() && !lines.get(i).startsWith("# ")) {
                    stray.add("line " + (i + 1));
                }
                continue;
            }
            String above = i > 0 ? lines.get(i - 1) : "";
            boolean meaningful = above.startsWith("# ") && !ENTRY.matcher(above).matches();
            assertTrue(meaningful, ".env.example line " + (i + 1) + ": no one-line meaning above " + m.group(2));
            Entry previous =
                    entries.put(m.group(2), new Entry(m.group(2), m.group(3), m.group(1) != null, above.substring(2)));
            assertEquals(null, previous, m.group(2) + " appears twice in .env.example");
        }
        assertEquals(List.of(), stray, ".env.example lines that are neither comments (\"# \") nor entries");
        return entries;
    }

    private static Set<String> slotOne(Set<String> names) {
        Set<String> normalized = new TreeSet<>();
        names.forEach(n -> normalized.add(slotOne(n)));
        return normalized;
    }

    private static String slotOne(String name) {
        return SLOT.matcher(name).replaceFirst("WORKDIR_01_");
    }
}
