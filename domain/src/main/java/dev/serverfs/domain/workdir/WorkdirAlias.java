package dev.serverfs.domain.workdir;

import java.util.Objects;

/** A workdir's public name: {@code ^[A-Za-z][A-Za-z0-9_-]{0,31}$}, case-sensitive (reference §9.2). */
public record WorkdirAlias(String value) {
    private static final int MAX_LENGTH = 32;

    public WorkdirAlias {
        Objects.requireNonNull(value, "value");
        if (!isValid(value)) {
            throw new IllegalArgumentException("invalid workdir alias");
        }
    }

    /** Whether {@code value} has an alias's shape; no allocation (the audit of every tool call asks). */
    public static boolean isValid(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_LENGTH || !letter(value.charAt(0))) {
            return false;
        }
        for (int i = 1; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!letter(c) && !(c >= '0' && c <= '9') && c != '_' && c != '-') {
                return false;
            }
        }
        return true;
    }

    private static boolean letter(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    }

    @Override
    public String toString() {
        return value;
    }
}
