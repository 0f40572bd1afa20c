package dev.serverfs.bootstrap.agent;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The names under which a provider view's {@code /proc/self/mountinfo} can show a host directory besides its own
 * path. A bind mount's line gives the source as a path within the source's file system: a directory on a file system
 * of its own (a separate {@code /home}) shows {@code /home/alice/x} as {@code /alice/x}, and in a container a
 * directory bound from the host shows the host's path. And the kernel writes a space, a tab, a newline or a
 * backslash of a name as an octal escape ({@code \040}). Read from this process's own mount table, which the view's
 * mounts are taken from.
 */
final class MountNames {

    private MountNames() {}

    /**
     * {@code directory} (absolute, normalised) as the mount table {@code mountinfo} (the lines of a {@code
     * /proc/PID/mountinfo}) would show it: its path below the root of the file system it is on, and the escaped form
     * of each name; without {@code directory} itself and never {@code /}.
     */
    static Set<String> of(String directory, List<String> mountinfo) {
        Set<String> names = new LinkedHashSet<>();
        names.add(directory);
        withinFileSystem(directory, mountinfo).ifPresent(names::add);
        for (String name : List.copyOf(names)) {
            names.add(escaped(name));
        }
        names.remove(directory);
        names.remove("/");
        return names;
    }

    /** The mount's root followed by the rest below its mount point, for the last-mounted, deepest mount holding it. */
    private static Optional<String> withinFileSystem(String directory, List<String> mountinfo) {
        String bestPoint = null;
        String bestRoot = null;
        for (String line : mountinfo) {
            String[] fields = line.split(" ", 6);
            if (fields.length < 6) {
                continue;
            }
            String root = unescaped(fields[3]);
            String point = unescaped(fields[4]);
            boolean holds = point.equals("/") || directory.equals(point) || directory.startsWith(point + "/");
            if (holds && (bestPoint == null || point.length() >= bestPoint.length())) {
                bestPoint = point;
                bestRoot = root;
            }
        }
        if (bestPoint == null) {
            return Optional.empty();
        }
        String rest = bestPoint.equals("/") ? directory : directory.substring(bestPoint.length());
        String name = bestRoot.equals("/") ? rest : bestRoot + rest;
        return Optional.of(name.isEmpty() ? "/" : name);
    }

    /** The kernel's octal escapes ({@code \040}) decoded. */
    static String unescaped(String field) {
        if (field.indexOf('\\') < 0) {
            return field;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length() && isOctal(field, i + 1)) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** {@code name} as mountinfo writes it: a space, a tab, a newline and a backslash as octal escapes. */
    static String escaped(String name) {
        StringBuilder out = new StringBuilder();
        for (char c : name.toCharArray()) {
            switch (c) {
                case ' ', '\t', '\n', '\\' -> out.append('\\').append(String.format("%03o", (int) c));
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isOctal(String s, int from) {
        for (int i = from; i < from + 3; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '7') {
                return false;
            }
        }
        return true;
    }
}
