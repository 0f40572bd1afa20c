package dev.serverfs.domain.task;

import dev.serverfs.domain.json.JsonValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Redaction of event payloads before storage (reference §3.13): native id keys are dropped; path-valued keys
 * and path lists become workdir-relative (root → {@code .}, elsewhere → {@code <outside-workdir>}); in other
 * strings the host workdir root becomes {@code <workdir>}, and a token that starts with one of the hidden host
 * directories (the serving user's home, ServerFS' own directories, the other workdirs: what the provider view's
 * mounts can name) or extends the root's name becomes {@code <outside-workdir>}; the longest matching directory
 * wins, so the workdir inside the home stays {@code <workdir>}. Applied recursively.
 */
public final class EventRedaction {
    public static final String WORKDIR = "<workdir>";
    public static final String OUTSIDE = "<outside-workdir>";

    private static final Set<String> DROPPED = Set.of("native_session_id", "native_turn_id", "thread_id", "turn_id");
    /** Reference §3.13, plus Claude's {@code blocked_path} and {@code notebook_path} (its tool inputs, §7.2). */
    private static final Set<String> PATH_KEYS = Set.of(
            "path", "cwd", "relative_cwd", "host_path", "file_path", "grantRoot", "blocked_path", "notebook_path");

    private static final Set<String> PATH_LISTS = Set.of("read", "write", "readableRoots", "writableRoots");

    private EventRedaction() {}

    /**
     * @param hostRoot the workdir's absolute host root, without a trailing slash
     * @param hidden absolute host directories no free text may name (a trailing slash is ignored, {@code /} and
     *     relative names are skipped)
     */
    public static JsonValue.JsonObject redact(
            JsonValue.JsonObject payload, String hostRoot, Collection<String> hidden) {
        return (JsonValue.JsonObject) value(payload, Prefixes.of(hostRoot, hidden), null);
    }

    /** Redacts free text such as a final response: no host directory of {@link #redact} reaches the agent's client. */
    public static String redactText(String text, String hostRoot, Collection<String> hidden) {
        return text(text, Prefixes.of(hostRoot, hidden));
    }

    /** The workdir root and the hidden directories, longest first (the root before a hidden name equal to it). */
    private record Prefixes(String root, List<String> all) {
        static Prefixes of(String root, Collection<String> hidden) {
            List<String> all = new ArrayList<>();
            if (root.startsWith("/") && root.length() > 1) {
                all.add(root);
            }
            for (String h : hidden) {
                String d = h.endsWith("/") ? h.substring(0, h.length() - 1) : h;
                if (d.startsWith("/") && d.length() > 1 && !all.contains(d)) {
                    all.add(d);
                }
            }
            all.sort(Comparator.comparingInt(String::length).reversed()); // stable: the root stays first on a tie
            return new Prefixes(root, List.copyOf(all));
        }

        /** The longest prefix that starts at {@code at}, or null. */
        String at(String s, int at) {
            for (String p : all) {
                if (s.startsWith(p, at)) {
                    return p;
                }
            }
            return null;
        }
    }

    private static JsonValue value(JsonValue v, Prefixes prefixes, String key) {
        return switch (v) {
            case JsonValue.JsonObject o -> {
                Map<String, JsonValue> out = new LinkedHashMap<>();
                o.members().forEach((k, child) -> {
                    if (!DROPPED.contains(k)) {
                        out.put(k, value(child, prefixes, k));
                    }
                });
                yield new JsonValue.JsonObject(out);
            }
            case JsonValue.JsonArray a -> {
                boolean pathList = key != null && PATH_LISTS.contains(key);
                List<JsonValue> items = a.items().stream()
                        .map(item -> pathList && item instanceof JsonValue.JsonString s
                                ? new JsonValue.JsonString(relative(s.value(), prefixes.root()))
                                : value(item, prefixes, null))
                        .toList();
                yield new JsonValue.JsonArray(items);
            }
            case JsonValue.JsonString s ->
                new JsonValue.JsonString(
                        key != null && PATH_KEYS.contains(key)
                                ? relative(s.value(), prefixes.root())
                                : text(s.value(), prefixes));
            case JsonValue.JsonNull n -> n;
            case JsonValue.JsonBool b -> b;
            case JsonValue.JsonNumber n -> n;
        };
    }

    /** A path value made workdir-relative; relative values are kept as they are. */
    static String relative(String path, String root) {
        if (!path.startsWith("/")) {
            return path;
        }
        if (path.equals(root) || path.equals(root + "/")) {
            return ".";
        }
        if (path.startsWith(root + "/")) {
            return path.substring(root.length() + 1);
        }
        return OUTSIDE;
    }

    /**
     * Free text: where a prefix starts (the longest of {@code prefixes}), the root followed by {@code /} or the end
     * of a name becomes {@code <workdir>}; the root followed by more of a name (a sibling), or a hidden directory,
     * becomes {@code <outside-workdir>} up to the token's end.
     */
    private static String text(String s, Prefixes prefixes) {
        if (prefixes.all().stream().noneMatch(s::contains)) {
            return s;
        }
        StringBuilder out = new StringBuilder();
        int copied = 0;
        int i = s.indexOf('/');
        while (i >= 0) {
            String prefix = prefixes.at(s, i);
            if (prefix == null) {
                i = s.indexOf('/', i + 1);
                continue;
            }
            out.append(s, copied, i);
            int end = i + prefix.length();
            if (prefix.equals(prefixes.root()) && (end == s.length() || !isNameChar(s.charAt(end)))) {
                out.append(WORKDIR);
                copied = end;
            } else {
                out.append(OUTSIDE);
                copied = tokenEnd(s, end);
            }
            i = s.indexOf('/', copied);
        }
        return out.append(s, copied, s.length()).toString();
    }

    /** Where the token that reaches {@code from} ends: at whitespace, a quote or the punctuation that follows a path. */
    private static int tokenEnd(String s, int from) {
        int end = from;
        while (end < s.length() && (s.charAt(end) == '/' || isNameChar(s.charAt(end)))) {
            end++;
        }
        return end;
    }

    private static boolean isNameChar(char c) {
        return c != '/'
                && !Character.isWhitespace(c)
                && c != '"'
                && c != '\''
                && c != ':'
                && c != ','
                && c != ')'
                && c != ']'
                && c != '}';
    }
}
