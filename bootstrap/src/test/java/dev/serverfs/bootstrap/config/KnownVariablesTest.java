package dev.serverfs.bootstrap.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    void every_variable_the_loader_reads_is_known() throws Exception {
        Path loader = Path.of("src", "main", "java", "dev", "serverfs", "bootstrap", "config", "ConfigLoader.java");
        Matcher m = Pattern.compile("\"(SERVERFS_[A-Z0-9_]+)\"").matcher(Files.readString(loader));
        while (m.find()) {
            assertTrue(KnownVariables.NAMES.contains(m.group(1)), m.group(1));
        }
    }
}
