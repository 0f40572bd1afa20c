package dev.serverfs.bootstrap.ingress;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.bootstrap.config.ServerSettings;
import dev.serverfs.bootstrap.config.Setting;
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
        // The catalogue settings IngressSettings reads, by their field in ServerSettings.
        Matcher m = Pattern.compile("ServerSettings\\.([A-Z][A-Z0-9_]*)\\.").matcher(Files.readString(SETTINGS));
        Set<String> names = new TreeSet<>();
        while (m.find()) {
            names.add(((Setting<?>) ServerSettings.class.getField(m.group(1)).get(null)).name());
        }
        assertTrue(names.size() >= 9, "expected the sidecar's variable names, found " + names);
        for (String name : names) {
            assertTrue(doc.contains("| `" + name + "` |"), name + " is not in the table of docs/INGRESS.md");
        }
    }
}
