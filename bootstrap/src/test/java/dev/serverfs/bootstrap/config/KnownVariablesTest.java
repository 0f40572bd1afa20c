package dev.serverfs.bootstrap.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class KnownVariablesTest {

    @Test
    void edit_distance_counts_insertions_deletions_and_substitutions() {
        assertEquals(0, KnownVariables.distance("ABC", "ABC", 2));
        assertEquals(1, KnownVariables.distance("ABC", "ABCD", 2));
        assertEquals(1, KnownVariables.distance("ABCD", "ABD", 2));
        assertEquals(1, KnownVariables.distance("ABC", "AXC", 2));
        assertEquals(2, KnownVariables.distance("ABCD", "BACD", 2));
        assertEquals(3, KnownVariables.distance("ABCDEFG", "XYZDEFG", 2));
    }

    @Test
    void near_misses_name_the_known_variable_and_known_or_far_names_do_not() {
        assertEquals(Optional.of("SERVERFS_MAX_READ_BYTES"), KnownVariables.nearMiss("SERVERFS_MAX_READ_BYTE"));
        assertEquals(Optional.empty(), KnownVariables.nearMiss("SERVERFS_MAX_READ_BYTES"));
        assertEquals(Optional.empty(), KnownVariables.nearMiss("SERVERFS_TOTALLY_DIFFERENT"));
        assertEquals(Optional.empty(), KnownVariables.nearMiss("OTHER_MAX_READ_BYTES"));
    }

    @Test
    void every_serverfs_name_in_bootstrap_sources_is_in_the_catalogue() throws Exception {
        Pattern literal = Pattern.compile("\"(SERVERFS_[A-Z0-9_]*[A-Z0-9])");
        int found = 0;
        try (Stream<Path> sources = Files.walk(Path.of("src", "main", "java"))) {
            for (Path source :
                    sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = literal.matcher(Files.readString(source));
                while (m.find()) {
                    found++;
                    assertTrue(KnownVariables.NAMES.contains(m.group(1)), source.getFileName() + ": " + m.group(1));
                }
            }
        }
        assertTrue(found >= 80, "expected the catalogue's names among the sources, found " + found);
    }

    @Test
    void the_known_names_are_the_catalogues_serverfs_names() {
        assertTrue(KnownVariables.NAMES.contains("SERVERFS_AGENT_PEER_UID"));
        assertTrue(KnownVariables.NAMES.contains("SERVERFS_QODER_BIN"), "reserved reference names are known");
        assertTrue(KnownVariables.NAMES.stream().allMatch(n -> n.startsWith("SERVERFS_")));
        assertEquals(
                Catalogue.globalNames().stream()
                        .filter(n -> n.startsWith("SERVERFS_"))
                        .count(),
                KnownVariables.NAMES.size());
    }
}
