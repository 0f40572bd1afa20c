package dev.serverfs.domain.workdir;

import java.util.Objects;
import java.util.regex.Pattern;

/** A workdir's public name: {@code ^[A-Za-z][A-Za-z0-9_-]{0,31}$}, case-sensitive (reference §9.2). */
public record WorkdirAlias(String value) {
    private static final Pattern SHAPE = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,31}");

    public WorkdirAlias {
        Objects.requireNonNull(value, "value");
        if (!isValid(value)) {
            throw new IllegalArgumentException("invalid workdir alias");
        }
    }

    public static boolean isValid(String value) {
        return value != null && SHAPE.matcher(value).matches();
    }

    @Override
    public String toString() {
        return value;
    }
}
