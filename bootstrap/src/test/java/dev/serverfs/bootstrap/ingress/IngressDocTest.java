package dev.serverfs.bootstrap.ingress;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/INGRESS.md documents every variable the sidecar reads, so the two cannot drift apart. */
class IngressDocTest {

    private static final Path DOC = Path.of("..", "docs", "INGRESS.md");
    private static final Path SETTINGS =
            Path.of("src", "main", "java", "dev", "serverfs", "bootstrap", "ingress", "IngressSettings.java");

    @Test
    void every_variable_the_sidecar_reads_is_documented() throws Exception {
        String doc = Files.readString(DOC);
        Matcher m = Pattern.compile("\"(SERVERFS_[A-Z0-9_]+)\"").matcher(Files.readString(SETTINGS));
        Set<String> names = new TreeSet<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        assertTrue(names.size() >= 9, "expected the sidecar's variable names, found " + names);
        for (String name : names) {
            assertTrue(doc.contains("| `" + name + "` |"), name + " is not in the table of docs/INGRESS.md");
        }
    }
}
