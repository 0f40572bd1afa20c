package dev.serverfs.bootstrap.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A parse style of the settings catalogue: how a setting's text becomes a value, and the words docs/CONFIGURATION.md
 * uses for it in its {@code parse} column ({@code label}; empty when the column is free prose). The reference's four
 * styles (contract reference §9) and the checked shapes some settings need.
 *
 * @param <T> the parsed value
 */
public record Style<T>(String label, Parse<T> parse) {

    /** Reads one setting; every error reason names the variable, never its value. */
    @FunctionalInterface
    public interface Parse<T> {
        /** The value of {@code name} in {@code vars}; empty when unset or (a permissive style) invalid. */
        Optional<T> read(Variables vars, String name) throws ConfigurationException;
    }

    public Style {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(parse, "parse");
    }

    /** Text as written (trimmed); any shape rule is the reader's. */
    static Style<String> text(String label) {
        return new Style<>(label, Variables::get);
    }

    /** {@code true/1/yes/on} | {@code false/0/no/off}, any case; anything else is an error. */
    static Style<Boolean> strictBool() {
        return new Style<>("strict bool", Variables::strictBool);
    }

    /** {@code 1/true/yes/on} (any case) is true, anything else false. */
    static Style<Boolean> permissiveBool() {
        return new Style<>("permissive bool", Variables::permissiveBool);
    }

    /** An integer greater than 0 and at most {@link Integer#MAX_VALUE}; anything else is an error. */
    static Style<Integer> strictPositiveInt() {
        return strictPositiveInt(Integer.MAX_VALUE);
    }

    /** An integer greater than 0 and at most {@code max}; anything else is an error. */
    static Style<Integer> strictPositiveInt(int max) {
        return new Style<>(
                positiveLabel(max),
                (vars, name) -> vars.strictPositive(name, max).map(Long::intValue));
    }

    /** {@link #strictPositiveInt(int)} for limits above the {@code int} range. */
    static Style<Long> strictPositiveLong(long max) {
        return new Style<>(positiveLabel(max), (vars, name) -> vars.strictPositive(name, max));
    }

    /** An integer greater than 0 that fits an {@code int}; anything else silently gives the default. */
    static Style<Integer> permissiveInt() {
        return new Style<>(
                "permissive int",
                (vars, name) -> vars.permissiveLong(name)
                        .filter(v -> v <= Integer.MAX_VALUE)
                        .map(Long::intValue));
    }

    /** An integer greater than 0; anything else silently gives the default. */
    static Style<Long> permissiveLong() {
        return new Style<>("permissive int", Variables::permissiveLong);
    }

    /** A number of seconds greater than 0, fractions allowed; anything else silently gives the default. */
    static Style<Duration> permissiveSeconds() {
        return new Style<>("permissive float", Variables::permissiveSeconds);
    }

    /** A number of seconds greater than 0 and at most {@code max}, fractions allowed; anything else is an error. */
    static Style<Duration> strictSeconds(long max) {
        return new Style<>("strict positive number (≤ " + max + ")", (vars, name) -> vars.strictSeconds(name, max));
    }

    /** An integer from {@code min} to {@code max}; anything else is an error. */
    static Style<Integer> integer(int min, int max) {
        return new Style<>("integer " + min + ".." + max, (vars, name) -> vars.integer(name, min, max));
    }

    /** Comma-separated items, trimmed, blanks dropped, order kept; unset is the empty list. */
    static Style<List<String>> commaList() {
        return new Style<>("comma list", (vars, name) -> Optional.of(vars.commaList(name)));
    }

    /** A path; a relative one from the env file resolves against the file's directory. */
    static Style<Path> path(String label) {
        return new Style<>(label, Variables::path);
    }

    /** A path that must be absolute as written. */
    static Style<Path> absolutePath(String label) {
        return new Style<>(label, Variables::absolutePath);
    }

    private static String positiveLabel(long max) {
        return max == Integer.MAX_VALUE ? "strict positive int" : "strict positive int (≤ " + max + ")";
    }
}
