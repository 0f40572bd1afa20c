package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.POJONode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A tool payload's JSON, written once as UTF-8 and embedded in the response without being parsed or encoded again:
 * as the raw {@code structuredContent} value and as the JSON string of the text content (the same JSON, reference
 * §2.1). A byte-based generator copies the prepared bytes; a character-based one writes the same text the usual
 * way, so the output is identical either way.
 */
final class EncodedJson extends JsonSerializable.Base {

    private final Prepared text;
    private final boolean quoted;

    private EncodedJson(Prepared text, boolean quoted) {
        this.text = text;
        this.quoted = quoted;
    }

    /** {@code json} (UTF-8 JSON text as Jackson wrote it) embedded as a JSON value. */
    static JsonNode rawValue(byte[] json) {
        String value = new String(json, StandardCharsets.UTF_8);
        return new POJONode(new EncodedJson(new Prepared(value, json, null), false));
    }

    /** {@code json} (UTF-8 JSON text as Jackson wrote it) embedded as a JSON string holding that text. */
    static JsonNode string(byte[] json) {
        String value = new String(json, StandardCharsets.UTF_8);
        return new POJONode(new EncodedJson(new Prepared(value, null, quote(json)), true));
    }

    @Override
    public void serialize(JsonGenerator gen, SerializerProvider serializers) throws IOException {
        if (quoted) {
            gen.writeString(text);
        } else {
            gen.writeRawValue(text);
        }
    }

    @Override
    public void serializeWithType(JsonGenerator gen, SerializerProvider serializers, TypeSerializer typeSer)
            throws IOException {
        serialize(gen, serializers);
    }

    /**
     * The body of a JSON string holding {@code json}, escaped as Jackson escapes it ({@code "} and {@code \}; bytes
     * of multi-byte UTF-8 sequences are never ASCII, so they are copied). Null when a control character would need
     * an escape: Jackson's own encoder then does it (its JSON output never holds one raw).
     */
    static byte[] quote(byte[] json) {
        byte[] out = new byte[json.length + (json.length >> 2) + 16];
        int o = 0;
        for (byte b : json) {
            if (b >= 0 && b < 0x20) {
                return null;
            }
            if (o + 2 > out.length) {
                out = Arrays.copyOf(out, out.length * 2);
            }
            if (b == '"' || b == '\\') {
                out[o++] = '\\';
            }
            out[o++] = b;
        }
        return Arrays.copyOf(out, o);
    }

    /** A {@link SerializedString} whose UTF-8 forms are known up front (a missing one is computed on demand). */
    private static final class Prepared extends SerializedString {
        Prepared(String value, byte[] unquotedUtf8, byte[] quotedUtf8) {
            super(value);
            _unquotedUTF8Ref = unquotedUtf8;
            _quotedUTF8Ref = quotedUtf8;
        }
    }
}
