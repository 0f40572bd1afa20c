package dev.serverfs.adapters.fs;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One ignore file ({@code .gitignore}, {@code .ignore}, {@code .rgignore}, {@code .git/info/exclude}) or the
 * set of {@code --glob} overrides, with the gitignore semantics ripgrep applies: comments, {@code \} escapes,
 * {@code !} whitelists, trailing {@code /} for directories only, patterns without a slash matching at any
 * depth, {@code *} and {@code ?} never crossing {@code /}, {@code **} for any number of directories; the last
 * matching pattern wins. Paths are relative to the file's directory, {@code /}-separated.
 */
final class IgnoreFile {

    /** Result of a match. */
    enum Verdict {
        NONE,
        IGNORE,
        WHITELIST
    }

    private record Rule(Pattern regex, boolean whitelist, boolean directoryOnly) {}

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
                rules.add(new Rule(rule.regex(), !rule.whitelist(), rule.directoryOnly()));
            }
        }
        return new IgnoreFile(rules);
    }

    Verdict match(String relativePath, boolean isDirectory) {
        for (int i = rules.size() - 1; i >= 0; i--) {
            Rule rule = rules.get(i);
            if (rule.directoryOnly() && !isDirectory) {
                continue;
            }
            if (rule.regex().matcher(relativePath).matches()) {
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
        try {
            return new Rule(Pattern.compile(translate(glob), Pattern.DOTALL), whitelist, directoryOnly);
        } catch (PatternSyntaxException e) {
            // ripgrep reports a bad glob and skips it.
            return null;
        }
    }

    /** Glob to regex with a literal separator: {@code *}, {@code ?} and classes never match {@code /}. */
    static String translate(String glob) {
        StringBuilder re = new StringBuilder();
        int n = glob.length();
        int i = 0;
        while (i < n) {
            char c = glob.charAt(i);
            if (c == '*' && i + 1 < n && glob.charAt(i + 1) == '*') {
                boolean startBoundary = i == 0 || glob.charAt(i - 1) == '/';
                boolean endBoundary = i + 2 == n || glob.charAt(i + 2) == '/';
                if (startBoundary && endBoundary) {
                    if (i + 2 == n) {
                        re.append(".*");
                        i += 2;
                    } else {
                        re.append("(?:.*/)?");
                        i += 3;
                    }
                    continue;
                }
                re.append("[^/]*");
                i += 2;
                continue;
            }
            switch (c) {
                case '*' -> re.append("[^/]*");
                case '?' -> re.append("[^/]");
                case '[' -> {
                    int close = classEnd(glob, i);
                    if (close < 0) {
                        throw new PatternSyntaxException("unclosed character class", glob, i);
                    }
                    re.append(charClass(glob.substring(i + 1, close)));
                    i = close;
                }
                case '\\' -> {
                    if (i + 1 < n) {
                        i++;
                        re.append(Pattern.quote(String.valueOf(glob.charAt(i))));
                    } else {
                        throw new PatternSyntaxException("dangling escape", glob, i);
                    }
                }
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
            i++;
        }
        return re.toString();
    }

    private static int classEnd(String glob, int open) {
        int j = open + 1;
        if (j < glob.length() && (glob.charAt(j) == '!' || glob.charAt(j) == '^')) {
            j++;
        }
        if (j < glob.length() && glob.charAt(j) == ']') {
            j++;
        }
        while (j < glob.length() && glob.charAt(j) != ']') {
            j++;
        }
        return j < glob.length() ? j : -1;
    }

    private static String charClass(String body) {
        StringBuilder out = new StringBuilder("[");
        int k = 0;
        if (!body.isEmpty() && (body.charAt(0) == '!' || body.charAt(0) == '^')) {
            out.append('^');
            k = 1;
        }
        for (; k < body.length(); k++) {
            char c = body.charAt(k);
            if (c == '-' && k > 0 && k < body.length() - 1) {
                out.append('-');
            } else if (Character.isLetterOrDigit(c)) {
                out.append(c);
            } else {
                out.append('\\').append(c);
            }
        }
        return out.append("&&[^/]]").toString();
    }
}
