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
 * {@code .env.example} is the settings catalogue rendered ({@link #render}): every variable ServerFS and its compose
 * files read, each under its one-line meaning, commented out with its default unless the operator must fill it in.
 * The file is checked in (operators copy it) and must equal the rendering; after a catalogue change regenerate it
 * with {@link #REGENERATE}. The compose files and deploy/ may name no variable the catalogue lacks.
 */
class EnvExampleTest {

    static final String REGENERATE = "mvn -B -ntp -o -pl bootstrap -am test -Dtest=EnvExampleTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dserverfs.write-env-example=true";

    private static final Path ROOT = Path.of("..");
    private static final Path EXAMPLE = ROOT.resolve(".env.example");
    private static final List<Path> COMPOSE_FILES =
            List.of(ROOT.resolve("compose.yml"), ROOT.resolve("compose.agent.yml"));
    private static final Path DEPLOY = ROOT.resolve("deploy");

    private static final int RULE_WIDTH = 116;
    private static final List<String> HEADER = List.of(
            "# ServerFS configuration: copy to .env (beside compose.yml, or anywhere for `./serverfs serve --env-file"
                    + " FILE`) and",
            "# edit. Every variable ServerFS and its compose files read is here, each under a one-line meaning. A"
                    + " commented line",
            "# shows the default: leave it commented to keep the default, uncomment it to change it. The uncommented"
                    + " lines are",
            "# yours to fill in. Full rules (parsing, limits, start-up checks): docs/CONFIGURATION.md.",
            "# Booleans: write true/false (Compose rejects 1/0 where it uses the value itself). Paths are taken"
                    + " literally.",
            "# Not here: SERVERFS_AOT_CACHE (the ./serverfs launcher reads it from its own environment only), the",
            "# Dockerfile's build arguments and the reference names ServerFS does not read (docs/CONFIGURATION.md).",
            "# Rendered from the settings catalogue: change the catalogue, not this file (docs/CONFIGURATION.md).");
    private static final String SLOTS_NOTE =
            "# Slots 02 to 16 take the same variables as slot 01 (WORKDIR_02_ALIAS, WORKDIR_02_PATH, ...).";

    private static final Pattern ENTRY = Pattern.compile("^(#)?([A-Z][A-Z0-9_]*)=(.*)$");
    private static final Pattern SLOT = Pattern.compile("^WORKDIR_[0-9]{2}_");
    private static final Pattern SERVERFS_NAME = Pattern.compile("SERVERFS_[A-Z0-9_]*[A-Z0-9]");
    private static final Pattern INTERPOLATION = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)");

    @TempDir
    Path tmp;

    /** One variable of the example: its value, whether it is commented out (a default) and its meaning line. */
    private record Entry(String name, String value, boolean commented, String meaning) {}

    /** {@code .env.example} as the catalogue gives it: per group a heading, per setting its meaning and line. */
    static String render() {
        StringBuilder out = new StringBuilder();
        HEADER.forEach(line -> out.append(line).append('\n'));
        for (Setting.Group group : Setting.Group.values()) {
            if (!group.inEnvExample()) {
                continue;
            }
            String heading = "# --- " + group.title() + " ";
            out.append('\n')
                    .append(heading)
                    .append("-".repeat(RULE_WIDTH - heading.length()))
                    .append('\n');
            if (group == Setting.Group.WORKDIRS) {
                out.append(SLOTS_NOTE).append('\n');
            }
            List<Setting<?>> settings = group == Setting.Group.WORKDIRS ? Catalogue.SLOT : Catalogue.GLOBAL;
            for (Setting<?> s : settings) {
                if (s.group() != group) {
                    continue;
                }
                String name = group == Setting.Group.WORKDIRS ? "WORKDIR_01_" + s.name() : s.name();
                out.append("# ").append(s.doc()).append('\n');
                out.append(s.fillIn() ? "" : "#")
                        .append(name)
                        .append('=')
                        .append(s.defaultText())
                        .append('\n');
            }
        }
        return out.toString();
    }

    @Test
    void the_example_is_the_catalogue_rendered() throws IOException {
        String rendered = render();
        if (Boolean.getBoolean("serverfs.write-env-example")) {
            Files.writeString(EXAMPLE, rendered);
        }
        assertEquals(
                rendered,
                Files.readString(EXAMPLE),
                ".env.example is not the settings catalogue's rendering; regenerate it with: " + REGENERATE);
    }

    @Test
    void every_entry_has_a_one_line_meaning_above_it_and_appears_once() throws IOException {
        Map<String, Entry> entries = entries();
        assertTrue(entries.size() >= 70, "expected the whole catalogue, found " + entries.size());
        for (Entry e : entries.values()) {
            assertTrue(e.meaning().length() > 10, e.name() + " has no meaning line");
        }
    }

    @Test
    void the_example_lists_every_catalogue_variable_with_its_default_and_meaning() throws IOException {
        Map<String, Entry> entries = entries();
        Set<String> expected = new TreeSet<>();
        for (Setting<?> s : Catalogue.SLOT) {
            expected.add("WORKDIR_01_" + s.name());
            assertListed(entries.get("WORKDIR_01_" + s.name()), s);
        }
        for (Setting<?> s : Catalogue.GLOBAL) {
            if (s.group().inEnvExample()) {
                expected.add(s.name());
                assertListed(entries.get(s.name()), s);
            }
        }
        assertEquals(expected, new TreeSet<>(entries.keySet()), "the variables of .env.example");
    }

    private static void assertListed(Entry e, Setting<?> s) {
        assertTrue(e != null, s.name() + " is missing from .env.example");
        assertEquals(s.defaultText(), e.value(), s.name() + ": the default in .env.example");
        assertEquals(!s.fillIn(), e.commented(), s.name() + ": commented out (a default) or to fill in");
        assertEquals(s.doc(), e.meaning(), s.name() + ": the meaning line above it");
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
        // one path for both: the file a configuration was read from is part of it (every child's view conceals it)
        Path file = tmp.resolve("serverfs.env");
        ServerFsConfig bare = ConfigLoader.load(Map.of(), Optional.of(Files.writeString(file, slot)));
        ServerFsConfig withDefaults = ConfigLoader.load(Map.of(), Optional.of(Files.writeString(file, spelledOut)));
        assertEquals(bare, withDefaults, "uncommenting the defaults of .env.example changes the configuration");
    }

    @Test
    void the_compose_files_and_deploy_name_only_catalogue_variables() throws IOException {
        Set<String> unknown = new TreeSet<>();
        Set<String> named = new TreeSet<>();
        List<Path> files = new ArrayList<>(COMPOSE_FILES);
        try (Stream<Path> deploy = Files.walk(DEPLOY)) {
            deploy.filter(Files::isRegularFile).forEach(files::add);
        }
        for (Path file : files) {
            String text = Files.readString(file);
            List<String> names = new ArrayList<>(matches(SERVERFS_NAME, text));
            if (COMPOSE_FILES.contains(file)) {
                names.addAll(matches(INTERPOLATION, text));
            }
            for (String name : names) {
                Matcher slot = SLOT.matcher(name);
                boolean known = slot.find()
                        ? Catalogue.isSlotSuffix(name.substring(slot.end()))
                        : Catalogue.find(name).isPresent();
                (known ? named : unknown).add(file.getFileName() + ": " + name);
            }
        }
        assertEquals(Set.of(), unknown, "variables the compose files or deploy/ name that the catalogue lacks");
        assertTrue(named.size() >= 20, "expected the compose files' variables, found " + named);
    }

    @Test
    void every_deployment_variable_of_the_catalogue_is_used_by_a_compose_file() throws IOException {
        StringBuilder compose = new StringBuilder();
        for (Path file : COMPOSE_FILES) {
            compose.append(Files.readString(file));
        }
        Set<String> interpolated = new TreeSet<>(matches(INTERPOLATION, compose));
        for (Setting<?> s : Catalogue.GLOBAL) {
            if (s.group() == Setting.Group.DEPLOYMENT) {
                assertTrue(
                        interpolated.contains(s.name()), s.name() + " is in the catalogue but no compose file uses it");
            }
        }
    }

    private static List<String> matches(Pattern pattern, CharSequence text) {
        List<String> found = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add(m.groupCount() > 0 ? m.group(1) : m.group());
        }
        return found;
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
}
