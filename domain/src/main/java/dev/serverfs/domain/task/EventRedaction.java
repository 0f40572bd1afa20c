package dev.serverfs.domain.task;

import dev.serverfs.domain.json.JsonValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Redaction of event payloads before storage (reference §3.13): native id keys are dropped; path-valued keys
 * and path lists become workdir-relative (root → {@code .}, elsewhere → {@code <outside-workdir>}); in other
 * strings the host workdir root becomes {@code <workdir>} and a sibling path sharing its prefix becomes
 * {@code <outside-workdir>}. Applied recursively.
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

    /** @param hostRoot the workdir's absolute host root, without a trailing slash */
    public static JsonValue.JsonObject redact(JsonValue.JsonObject payload, String hostRoot) {
        return (JsonValue.JsonObject) value(payload, hostRoot, null);
    }

    private static JsonValue value(JsonValue v, String root, String key) {
        return switch (v) {
            case JsonValue.JsonObject o -> {
                Map<String, JsonValue> out = new LinkedHashMap<>();
                o.members().forEach((k, child) -> {
                    if (!DROPPED.contains(k)) {
                        out.put(k, value(child, root, k));
                    }
                });
                yield new JsonValue.JsonObject(out);
            }
            case JsonValue.JsonArray a -> {
                boolean pathList = key != null && PATH_LISTS.contains(key);
                List<JsonValue> items = a.items().stream()
                        .map(item -> pathList && item instanceof JsonValue.JsonString s
                                ? new JsonValue.JsonString(relative(s.value(), root))
                                : value(item, root, null))
                        .toList();
                yield new JsonValue.JsonArray(items);
            }
            case JsonValue.JsonString s ->
                new JsonValue.JsonString(
                        key != null && PATH_KEYS.contains(key) ? relative(s.value(), root) : text(s.value(), root));
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

    /** Redacts free text such as a final response: the host root never reaches the agent. */
    public static String redactText(String text, String hostRoot) {
        return text(text, hostRoot);
    }

    /** Free text: the root becomes {@code <workdir>}; a token extending the root's name becomes {@code <outside-workdir>}. */
    static String text(String s, String root) {
        if (root.isEmpty() || !s.contains(root)) {
            return s;
        }
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (true) {
            int at = s.indexOf(root, i);
            if (at < 0) {
                out.append(s, i, s.length());
                return out.toString();
            }
            out.append(s, i, at);
            int end = at + root.length();
            if (end < s.length() && isNameChar(s.charAt(end))) {
                int tokenEnd = end;
                while (tokenEnd < s.length()
                        && !Character.isWhitespace(s.charAt(tokenEnd))
                        && s.charAt(tokenEnd) != '"'
                        && s.charAt(tokenEnd) != '\'') {
                    tokenEnd++;
                }
                out.append(OUTSIDE);
                i = tokenEnd;
            } else {
                out.append(WORKDIR);
                i = end;
            }
        }
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
