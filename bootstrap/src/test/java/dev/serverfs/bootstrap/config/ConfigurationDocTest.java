package dev.serverfs.bootstrap.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/CONFIGURATION.md documents every variable the loader reads, so the two cannot drift apart. */
class ConfigurationDocTest {

    private static final Path DOC = Path.of("..", "docs", "CONFIGURATION.md");
    private static final Path LOADER =
            Path.of("src", "main", "java", "dev", "serverfs", "bootstrap", "config", "ConfigLoader.java");

    @Test
    void every_global_variable_the_loader_reads_is_documented() throws Exception {
        String doc = Files.readString(DOC);
        Matcher m = Pattern.compile("\"(SERVERFS_[A-Z0-9_]+)\"").matcher(Files.readString(LOADER));
        Set<String> names = new TreeSet<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        assertTrue(names.size() >= 35, "expected the loader's variable names, found " + names);
        for (String name : names) {
            assertTrue(doc.contains("`" + name + "`"), name + " is not documented in docs/CONFIGURATION.md");
        }
    }

    @Test
    void every_workdir_suffix_is_documented() throws Exception {
        String doc = Files.readString(DOC);
        for (String suffix : ConfigLoader.WORKDIR_SUFFIXES) {
            assertTrue(doc.contains("`" + suffix + "`"), suffix + " is not documented in docs/CONFIGURATION.md");
        }
    }
}
