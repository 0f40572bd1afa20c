package dev.serverfs.domain.workdir;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A normalised, workdir-relative path: components without {@code /}, never empty, {@code .} or {@code ..}.
 * The empty list is the workdir root. Only {@link PathPolicy} creates one from agent input; adapters build
 * children of paths they already hold.
 */
public record WorkdirPath(List<String> parts) {

    public static final WorkdirPath ROOT = new WorkdirPath(List.of());

    public WorkdirPath {
        parts = List.copyOf(parts);
        for (String part : parts) {
            if (part.isEmpty()
                    || part.equals(".")
                    || part.equals("..")
                    || part.indexOf('/') >= 0
                    || part.indexOf('\0') >= 0
                    || !AgentText.wellFormed(part)) {
                throw new IllegalArgumentException("not a normalised path component");
            }
        }
    }

    public boolean isRoot() {
        return parts.isEmpty();
    }

    /** The last component; the empty string for the root. */
    public String name() {
        return parts.isEmpty() ? "" : parts.getLast();
    }

    public WorkdirPath child(String name) {
        Objects.requireNonNull(name, "name");
        List<String> next = new ArrayList<>(parts.size() + 1);
        next.addAll(parts);
        next.add(name);
        return new WorkdirPath(next);
    }

    /** The parent directory; the root is its own parent. */
    public WorkdirPath parent() {
        return parts.isEmpty() ? this : new WorkdirPath(parts.subList(0, parts.size() - 1));
    }

    /** The agent-visible form: components joined with {@code /}, {@code ""} for the root. */
    public String display() {
        return String.join("/", parts);
    }

    @Override
    public String toString() {
        return display();
    }
}
