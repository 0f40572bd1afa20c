package dev.serverfs.bootstrap.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The four parse styles of contract reference §9. */
class VariablesTest {

    private static Variables of(String name, String value) {
        return Variables.of(Map.of(name, value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "TRUE", "1", "yes", "Yes", "on", " on "})
    void strict_bool_accepts_the_true_spellings(String value) throws Exception {
        assertTrue(of("X", value).strictBool("X", false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"false", "False", "0", "no", "NO", "off"})
    void strict_bool_accepts_the_false_spellings(String value) throws Exception {
        assertFalse(of("X", value).strictBool("X", true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ture", "2", "y", "enabled", "-1"})
    void strict_bool_rejects_anything_else_naming_the_variable(String value) {
        assertEquals(
                "X must be true or false",
                assertThrows(ConfigurationException.class, () -> of("X", value).strictBool("X", false))
                        .reason());
    }

    @Test
    void strict_bool_empty_means_default() throws Exception {
        assertTrue(of("X", "  ").strictBool("X", true));
        assertFalse(of("X", "").strictBool("X", false));
        assertTrue(of("Y", "1").strictBool("X", true));
    }

    @Test
    void permissive_bool_is_true_only_for_the_true_spellings() {
        assertTrue(of("X", "YES").permissiveBool("X", false));
        assertTrue(of("X", "1").permissiveBool("X", false));
        assertFalse(of("X", "banana").permissiveBool("X", true));
        assertFalse(of("X", "2").permissiveBool("X", true));
        assertTrue(of("X", "").permissiveBool("X", true));
    }

    @Test
    void strict_positive_int_rejects_non_integers_zero_negatives_and_overflow() {
        for (String bad : List.of("abc", "1.5", "0", "-3", "1e3", "99999999999999999999")) {
            assertEquals(
                    "X must be a positive integer",
                    assertThrows(
                                    ConfigurationException.class,
                                    () -> of("X", bad).strictPositiveInt("X", 5))
                            .reason(),
                    bad);
        }
        assertEquals(
                "X must be a positive integer no larger than 2147483647",
                assertThrows(
                                ConfigurationException.class,
                                () -> of("X", "2147483648").strictPositiveInt("X", 5))
                        .reason());
    }

    @Test
    void strict_positive_int_parses_and_defaults() throws Exception {
        assertEquals(42, of("X", " 42 ").strictPositiveInt("X", 5));
        assertEquals(5, of("X", "").strictPositiveInt("X", 5));
    }

    @Test
    void permissive_int_falls_back_silently() {
        assertEquals(7, of("X", "7").permissiveInt("X", 100));
        assertEquals(100, of("X", "abc").permissiveInt("X", 100));
        assertEquals(100, of("X", "0").permissiveInt("X", 100));
        assertEquals(100, of("X", "-5").permissiveInt("X", 100));
        assertEquals(100, of("X", "3000000000").permissiveInt("X", 100));
        assertEquals(3_000_000_000L, of("X", "3000000000").permissiveLong("X", 100));
    }

    @Test
    void permissive_float_seconds_falls_back_silently() {
        Duration d = Duration.ofSeconds(15);
        assertEquals(Duration.ofMillis(2500), of("X", "2.5").permissiveSeconds("X", d));
        assertEquals(Duration.ofSeconds(3), of("X", "3").permissiveSeconds("X", d));
        for (String bad : List.of("abc", "0", "-1", "NaN", "Infinity", "")) {
            assertEquals(d, of("X", bad).permissiveSeconds("X", d), bad);
        }
    }

    @Test
    void comma_lists_trim_items_and_drop_blanks() {
        assertEquals(List.of("a", "b c", "d"), of("X", " a, b c ,, d ,").commaList("X"));
        assertEquals(List.of(), of("X", " , ").commaList("X"));
    }
}
