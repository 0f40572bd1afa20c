package dev.serverfs.adapters.fs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One ignore file ({@code .gitignore}, {@code .ignore}, {@code .rgignore}, {@code .git/info/exclude}) or the
 * set of {@code --glob} overrides, with the gitignore semantics ripgrep applies: comments, {@code \} escapes,
 * {@code !} whitelists, trailing {@code /} for directories only, patterns without a slash matching at any
 * depth, {@code *} and {@code ?} never crossing {@code /}, {@code **} for any number of directories; the last
 * matching pattern wins. Paths are relative to the file's directory, {@code /}-separated. Matching is linear in
 * the rules and never backtracks (see {@link GitGlob}).
 */
final class IgnoreFile {

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
        List<Rule> rules = new ArrayList<>();
        for (String line : content.split("\n", -1)) {
            Rule rule = parseLine(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
            if (rule != null) {
                rules.add(rule);
            }
        }
        return new IgnoreFile(rules);
    }

    /** Overrides as ripgrep builds them from {@code --glob}: a plain glob whitelists, {@code !glob} ignores. */
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
        return match(Arrays.asList(relativePath.split("/", -1)), isDirectory);
    }

    /** The verdict for a path given as its components, relative to the file's directory. */
    Verdict match(List<String> relativePath, boolean isDirectory) {
        for (int i = rules.size() - 1; i >= 0; i--) {
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
        if (line.isEmpty()) {
            return null;
        }
        String glob = line;
        if (!absolute && glob.indexOf('/') < 0 && !glob.startsWith("**/")) {
            glob = "**/" + glob;
        }
        if (glob.endsWith("/**")) {
            glob = glob + "/*";
        }
        GitGlob compiled = GitGlob.compile(glob);
        // ripgrep reports a bad glob and skips it.
        return compiled == null ? null : new Rule(compiled, whitelist, directoryOnly);
    }
}
