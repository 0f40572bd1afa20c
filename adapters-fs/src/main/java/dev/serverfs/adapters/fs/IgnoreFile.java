package dev.serverfs.adapters.fs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * One ignore file ({@code .gitignore}, {@code .ignore}, {@code .rgignore}, {@code .git/info/exclude}) or the
 * set of {@code --glob} overrides, with the gitignore semantics ripgrep applies: comments, {@code \} escapes,
 * {@code !} whitelists, trailing {@code /} for directories only, patterns without a slash matching at any
 * depth, {@code *} and {@code ?} never crossing {@code /}, {@code **} for any number of directories; the last
 * matching pattern wins. Paths are relative to the file's directory, {@code /}-separated. Matching is linear in
 * the rules and never backtracks (see {@link GitGlob}). Parsing and matching take a stop signal, checked every
 * {@link #CHECK_EVERY} lines or rules, so a huge file cannot hold a search past its deadline (issue 24 §1).
 */
final class IgnoreFile {

    /** Lines parsed, or rules tried, between two checks of the stop signal. */
    static final int CHECK_EVERY = 256;

    private static final BooleanSupplier NEVER = () -> false;

    /** Parsing or matching gave up because its stop signal turned true. */
    static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("stopped", null, false, false);
        }
    }

    /** Result of a match. */
    enum Verdict {
        NONE,
        IGNORE,
        WHITELIST
    }

    private record Rule(GitGlob glob, boolean whitelist, boolean directoryOnly) {}

    private final List<Rule> rules;

    private IgnoreFile(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    boolean isEmpty() {
        return rules.isEmpty();
    }

    int whitelistCount() {
        return (int) rules.stream().filter(Rule::whitelist).count();
    }

    static IgnoreFile parse(String content) {
        return parse(content, NEVER);
    }

    /**
     * An ignore file's rules; a line whose glob is malformed is skipped, as ripgrep does.
     *
     * @throws Stopped when {@code stop} turns true
     */
    static IgnoreFile parse(String content, BooleanSupplier stop) {
        List<Rule> rules = new ArrayList<>();
        int lines = 0;
        for (String line : content.split("\n", -1)) {
            if (++lines % CHECK_EVERY == 0 && stop.getAsBoolean()) {
                throw new Stopped();
            }
            try {
                Rule rule = parseLine(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
                if (rule != null) {
                    rules.add(rule);
                }
            } catch (IllegalArgumentException e) {
                // ripgrep reports a bad glob in an ignore file and skips that line.
            }
        }
        return new IgnoreFile(rules);
    }

    /**
     * Overrides as ripgrep builds them from {@code --glob}: a plain glob whitelists, {@code !glob} ignores.
     *
     * @throws IllegalArgumentException when a glob is malformed (ripgrep refuses to run), with the reason
     */
    static IgnoreFile overrides(List<String> globs) {
        List<Rule> rules = new ArrayList<>();
        for (String glob : globs) {
            Rule rule = parseLine(glob);
            if (rule != null) {
                rules.add(new Rule(rule.glob(), !rule.whitelist(), rule.directoryOnly()));
            }
        }
        return new IgnoreFile(rules);
    }

    Verdict match(String relativePath, boolean isDirectory) {
        return match(Arrays.asList(relativePath.split("/", -1)), isDirectory, NEVER);
    }

    Verdict match(List<String> relativePath, boolean isDirectory) {
        return match(relativePath, isDirectory, NEVER);
    }

    /**
     * The verdict for a path given as its components, relative to the file's directory.
     *
     * @throws Stopped when {@code stop} turns true
     */
    Verdict match(List<String> relativePath, boolean isDirectory, BooleanSupplier stop) {
        for (int i = rules.size() - 1; i >= 0; i--) {
            if (i % CHECK_EVERY == 0 && i > 0 && stop.getAsBoolean()) {
                throw new Stopped();
            }
            Rule rule = rules.get(i);
            if (rule.directoryOnly() && !isDirectory) {
                continue;
            }
            if (rule.glob().matches(relativePath)) {
                return rule.whitelist() ? Verdict.WHITELIST : Verdict.IGNORE;
            }
        }
        return Verdict.NONE;
    }

    /**
     * The rule of one line, null for a comment or a blank; a malformed glob throws (its reason as the message). A
     * glob left empty by its prefixes is a rule as in ripgrep: {@code !} alone matches every path, {@code /} none.
     */
    private static Rule parseLine(String raw) {
        String line = raw;
        if (line.startsWith("#")) {
            return null;
        }
        if (!line.endsWith("\\ ")) {
            line = line.stripTrailing();
        }
        if (line.isEmpty()) {
            return null;
        }
        boolean whitelist = false;
        boolean absolute = false;
        if (line.startsWith("\\!") || line.startsWith("\\#")) {
            line = line.substring(1);
            absolute = line.startsWith("/");
        } else {
            if (line.startsWith("!")) {
                whitelist = true;
                line = line.substring(1);
            }
            if (line.startsWith("/")) {
                line = line.substring(1);
                absolute = true;
            }
        }
        boolean directoryOnly = false;
        if (line.endsWith("/")) {
            directoryOnly = true;
            line = line.substring(0, line.length() - 1);
        }
        String glob = line;
        if (glob.isEmpty()) {
            glob = absolute ? "" : "**";
        } else if (!absolute && glob.indexOf('/') < 0 && !glob.startsWith("**/")) {
            glob = "**/" + glob;
        }
        if (glob.endsWith("/**")) {
            glob = glob + "/*";
        }
        return new Rule(GitGlob.strict(glob), whitelist, directoryOnly);
    }
}
