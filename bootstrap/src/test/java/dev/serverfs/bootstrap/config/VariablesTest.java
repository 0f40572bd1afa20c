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

/** The four parse styles of contract reference §9 ({@link Style} over {@link Variables}). */
class VariablesTest {

    private static Variables of(String name, String value) {
        return Variables.of(Map.of(name, value));
    }

    /** Reads {@code name} of {@code vars} in {@code style}, else {@code defaultValue} (as a setting does). */
    private static <T> T read(Variables vars, Style<T> style, String name, T defaultValue)
            throws ConfigurationException {
        return style.parse().read(vars, name).orElse(defaultValue);
    }

    private static <T> T readUnchecked(Variables vars, Style<T> style, String name, T defaultValue) {
        try {
            return read(vars, style, name, defaultValue);
        } catch (ConfigurationException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "TRUE", "1", "yes", "Yes", "on", " on "})
    void strict_bool_accepts_the_true_spellings(String value) throws Exception {
        assertTrue(read(of("X", value), Style.strictBool(), "X", false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"false", "False", "0", "no", "NO", "off"})
    void strict_bool_accepts_the_false_spellings(String value) throws Exception {
        assertFalse(read(of("X", value), Style.strictBool(), "X", true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ture", "2", "y", "enabled", "-1"})
    void strict_bool_rejects_anything_else_naming_the_variable(String value) {
        assertEquals(
                "X must be true or false",
                assertThrows(ConfigurationException.class, () -> read(of("X", value), Style.strictBool(), "X", false))
                        .reason());
    }

    @Test
    void strict_bool_empty_means_default() throws Exception {
        assertTrue(read(of("X", "  "), Style.strictBool(), "X", true));
        assertFalse(read(of("X", ""), Style.strictBool(), "X", false));
        assertTrue(read(of("Y", "1"), Style.strictBool(), "X", true));
    }

    @Test
    void permissive_bool_is_true_only_for_the_true_spellings() {
        assertTrue(readUnchecked(of("X", "YES"), Style.permissiveBool(), "X", false));
        assertTrue(readUnchecked(of("X", "1"), Style.permissiveBool(), "X", false));
        assertFalse(readUnchecked(of("X", "banana"), Style.permissiveBool(), "X", true));
        assertFalse(readUnchecked(of("X", "2"), Style.permissiveBool(), "X", true));
        assertTrue(readUnchecked(of("X", ""), Style.permissiveBool(), "X", true));
    }

    @Test
    void strict_positive_int_rejects_non_integers_zero_negatives_and_overflow() {
        for (String bad : List.of("abc", "1.5", "0", "-3", "1e3", "99999999999999999999")) {
            assertEquals(
                    "X must be a positive integer",
                    assertThrows(
                                    ConfigurationException.class,
                                    () -> read(of("X", bad), Style.strictPositiveInt(), "X", 5))
                            .reason(),
                    bad);
        }
        assertEquals(
                "X must be a positive integer no larger than 2147483647",
                assertThrows(
                                ConfigurationException.class,
                                () -> read(of("X", "2147483648"), Style.strictPositiveInt(), "X", 5))
                        .reason());
    }

    @Test
    void strict_positive_int_parses_and_defaults() throws Exception {
        assertEquals(42, read(of("X", " 42 "), Style.strictPositiveInt(), "X", 5));
        assertEquals(5, read(of("X", ""), Style.strictPositiveInt(), "X", 5));
    }

    @Test
    void permissive_int_falls_back_silently() {
        assertEquals(7, readUnchecked(of("X", "7"), Style.permissiveInt(), "X", 100));
        assertEquals(100, readUnchecked(of("X", "abc"), Style.permissiveInt(), "X", 100));
        assertEquals(100, readUnchecked(of("X", "0"), Style.permissiveInt(), "X", 100));
        assertEquals(100, readUnchecked(of("X", "-5"), Style.permissiveInt(), "X", 100));
        assertEquals(100, readUnchecked(of("X", "3000000000"), Style.permissiveInt(), "X", 100));
        assertEquals(3_000_000_000L, readUnchecked(of("X", "3000000000"), Style.permissiveLong(), "X", 100L));
    }

    @Test
    void permissive_float_seconds_falls_back_silently() {
        Duration d = Duration.ofSeconds(15);
        assertEquals(Duration.ofMillis(2500), readUnchecked(of("X", "2.5"), Style.permissiveSeconds(), "X", d));
        assertEquals(Duration.ofSeconds(3), readUnchecked(of("X", "3"), Style.permissiveSeconds(), "X", d));
        for (String bad : List.of("abc", "0", "-1", "NaN", "Infinity", "")) {
            assertEquals(d, readUnchecked(of("X", bad), Style.permissiveSeconds(), "X", d), bad);
        }
    }

    @Test
    void comma_lists_trim_items_and_drop_blanks() {
        assertEquals(List.of("a", "b c", "d"), of("X", " a, b c ,, d ,").commaList("X"));
        assertEquals(List.of(), of("X", " , ").commaList("X"));
    }
}
