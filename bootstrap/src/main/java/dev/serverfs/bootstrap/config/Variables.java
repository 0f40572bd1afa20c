package dev.serverfs.bootstrap.config;

import java.math.BigDecimal;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The merged variables (process environment over {@code .env} file) and the parse styles of the reference (contract
 * reference §9: strict bool, permissive bool, strict positive int, permissive int/float) and of a few settings of
 * ours, each returning empty for "not set" (the setting's default then applies, see {@link Setting}). Values are
 * trimmed; an empty value means "not set". Error reasons name the variable, never its value.
 */
public final class Variables {

    private static final Set<String> TRUE = Set.of("true", "1", "yes", "on");
    private static final Set<String> FALSE = Set.of("false", "0", "no", "off");

    private final Map<String, String> values;
    private final Set<String> fromFile;
    private final Optional<Path> file;
    private final Optional<Path> fileDirectory;

    private Variables(Map<String, String> values, Set<String> fromFile, Optional<Path> file) {
        this.values = Map.copyOf(values);
        this.fromFile = Set.copyOf(fromFile);
        this.file = file;
        this.fileDirectory = file.map(Path::getParent);
    }

    /**
     * The variables of a process: an optional {@code .env} file overlaid by {@code env} (the environment wins, even
     * with an empty value). A missing or malformed file is a configuration error.
     */
    public static Variables load(Map<String, String> env, Optional<Path> envFile) throws ConfigurationException {
        Map<String, String> merged = new HashMap<>();
        Set<String> fromFile = new HashSet<>();
        Optional<Path> file = envFile.map(Path::toAbsolutePath);
        if (file.isPresent()) {
            Map<String, String> fileValues = EnvFile.read(file.get());
            merged.putAll(fileValues);
            fromFile.addAll(fileValues.keySet());
        }
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey() != null && e.getValue() != null) {
                merged.put(e.getKey(), e.getValue());
                fromFile.remove(e.getKey());
            }
        }
        return new Variables(merged, fromFile, file);
    }

    /** Variables from a plain map, as if all came from the process environment. */
    public static Variables of(Map<String, String> values) {
        return new Variables(values, Set.of(), Optional.empty());
    }

    /** The {@code --env-file} these variables were read from, absolute; empty when there was none. */
    Optional<Path> file() {
        return file;
    }

    Set<String> names() {
        return values.keySet();
    }

    /** The trimmed value, empty when unset or blank. */
    public Optional<String> get(String name) {
        String value = values.get(name);
        if (value == null) {
            return Optional.empty();
        }
        String trimmed = value.strip();
        return trimmed.isEmpty() ? Optional.empty() : Optional.of(trimmed);
    }

    /** Strict bool: {@code true/1/yes/on} | {@code false/0/no/off}, case-insensitive; empty = unset. */
    Optional<Boolean> strictBool(String name) throws ConfigurationException {
        Optional<String> raw = get(name);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        String value = raw.get().toLowerCase(Locale.ROOT);
        if (TRUE.contains(value)) {
            return Optional.of(true);
        }
        if (FALSE.contains(value)) {
            return Optional.of(false);
        }
        throw new ConfigurationException(name + " must be true or false");
    }

    /** Permissive bool: {@code 1/true/yes/on} (case-insensitive) is true, anything else false; empty = unset. */
    Optional<Boolean> permissiveBool(String name) {
        return get(name).map(v -> TRUE.contains(v.toLowerCase(Locale.ROOT)));
    }

    /** Strict positive int: empty = unset; not an integer, {@code <= 0} or above {@code max} is an error. */
    Optional<Long> strictPositive(String name, long max) throws ConfigurationException {
        Optional<String> raw = get(name);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        long value;
        try {
            value = Long.parseLong(raw.get());
        } catch (NumberFormatException e) {
            throw new ConfigurationException(name + " must be a positive integer");
        }
        if (value <= 0) {
            throw new ConfigurationException(name + " must be a positive integer");
        }
        if (value > max) {
            throw new ConfigurationException(name + " must be a positive integer no larger than " + max);
        }
        return Optional.of(value);
    }

    /** Permissive int: invalid or {@code <= 0} is treated as unset (the caller's default applies). */
    Optional<Long> permissiveLong(String name) {
        Optional<String> raw = get(name);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        try {
            long value = Long.parseLong(raw.get());
            return value > 0 ? Optional.of(value) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Permissive float seconds: invalid, non-finite or {@code <= 0} is treated as unset. */
    Optional<Duration> permissiveSeconds(String name) {
        Optional<String> raw = get(name);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        double seconds;
        try {
            seconds = Double.parseDouble(raw.get());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (!Double.isFinite(seconds) || seconds <= 0) {
            return Optional.empty();
        }
        if (seconds >= 9.0e9) {
            return Optional.of(Duration.ofSeconds((long) Math.min(seconds, (double) Long.MAX_VALUE)));
        }
        Duration value = Duration.ofNanos(Math.round(seconds * 1e9));
        return value.isZero() ? Optional.empty() : Optional.of(value);
    }

    /** Strict integer in {@code min..max}; empty = unset; anything else is an error naming the range. */
    Optional<Integer> integer(String name, int min, int max) throws ConfigurationException {
        Optional<String> raw = get(name);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        try {
            int value = Integer.parseInt(raw.get());
            if (value >= min && value <= max) {
                return Optional.of(value);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigurationException(name + " must be an integer from " + min + " to " + max);
    }

    /** Strict seconds: a number greater than 0 and at most {@code maxSeconds}, fractions allowed; empty = unset. */
    Optional<Duration> strictSeconds(String name, long maxSeconds) throws ConfigurationException {
        Optional<String> raw = get(name);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        try {
            BigDecimal seconds = new BigDecimal(raw.get());
            if (seconds.signum() > 0 && seconds.compareTo(BigDecimal.valueOf(maxSeconds)) <= 0) {
                Duration value = Duration.ofNanos(seconds.movePointRight(9).longValue());
                if (!value.isZero()) {
                    return Optional.of(value);
                }
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // reported below
        }
        throw new ConfigurationException(
                name + " must be a number of seconds greater than 0 and at most " + maxSeconds);
    }

    /** Comma list: items trimmed, blanks dropped, order kept. */
    List<String> commaList(String name) {
        List<String> items = new ArrayList<>();
        for (String item : get(name).orElse("").split(",", -1)) {
            String trimmed = item.strip();
            if (!trimmed.isEmpty()) {
                items.add(trimmed);
            }
        }
        return List.copyOf(items);
    }

    /**
     * A path value. A relative value that came from the {@code .env} file resolves against the file's directory
     * (so an example file works from any working directory); one from the process environment against the working
     * directory.
     */
    Optional<Path> path(String name) throws ConfigurationException {
        Optional<String> raw = get(name);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        Path path;
        try {
            path = Path.of(raw.get());
        } catch (InvalidPathException e) {
            throw new ConfigurationException(name + " is not a valid path");
        }
        if (!path.isAbsolute() && fromFile.contains(name) && fileDirectory.isPresent()) {
            path = fileDirectory.get().resolve(path);
        }
        return Optional.of(path.toAbsolutePath());
    }

    /** A path that must be absolute as written (no resolution against any directory). */
    Optional<Path> absolutePath(String name) throws ConfigurationException {
        Optional<String> raw = get(name);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        try {
            Path path = Path.of(raw.get());
            if (!path.isAbsolute()) {
                throw new ConfigurationException(name + " must be an absolute path");
            }
            return Optional.of(path.normalize());
        } catch (InvalidPathException e) {
            throw new ConfigurationException(name + " is not a valid path");
        }
    }
}
