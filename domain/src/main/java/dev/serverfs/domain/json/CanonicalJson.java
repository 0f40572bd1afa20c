package dev.serverfs.domain.json;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The canonical JSON encoding used for hashes (reference §4.4): object keys sorted by Unicode code point,
 * separators {@code ,} and {@code :} without spaces, non-ASCII characters written as UTF-8 (not escaped),
 * control characters escaped like Python's {@code json.dumps}. Changing this encoding is a versioned change:
 * stored fingerprints and manifest hashes depend on it.
 */
public final class CanonicalJson {
    private static final HexFormat HEX = HexFormat.of();

    private CanonicalJson() {}

    public static String write(JsonValue value) {
        StringBuilder out = new StringBuilder();
        append(out, value);
        return out.toString();
    }

    /** Lowercase hex SHA-256 of the canonical UTF-8 encoding of {@code value}. */
    public static String sha256(JsonValue value) {
        return sha256Hex(write(value).getBytes(StandardCharsets.UTF_8));
    }

    /** Lowercase hex SHA-256 of raw bytes. */
    public static String sha256Hex(byte[] bytes) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is mandatory in every JDK", e);
        }
    }

    private static void append(StringBuilder out, JsonValue value) {
        switch (value) {
            case JsonValue.JsonNull ignored -> out.append("null");
            case JsonValue.JsonBool b -> out.append(b.value() ? "true" : "false");
            case JsonValue.JsonNumber n -> out.append(number(n));
            case JsonValue.JsonString s -> string(out, s.value());
            case JsonValue.JsonArray a -> {
                out.append('[');
                for (int i = 0; i < a.items().size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    append(out, a.items().get(i));
                }
                out.append(']');
            }
            case JsonValue.JsonObject o -> {
                List<Map.Entry<String, JsonValue>> entries =
                        new ArrayList<>(o.members().entrySet());
                entries.sort((x, y) -> compareCodePoints(x.getKey(), y.getKey()));
                out.append('{');
                for (int i = 0; i < entries.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    string(out, entries.get(i).getKey());
                    out.append(':');
                    append(out, entries.get(i).getValue());
                }
                out.append('}');
            }
        }
    }

    private static String number(JsonValue.JsonNumber n) {
        var v = n.value().stripTrailingZeros();
        if (v.scale() <= 0) {
            return v.toBigIntegerExact().toString();
        }
        return v.toPlainString();
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
