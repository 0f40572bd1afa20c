package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.POJONode;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A tool payload's JSON, written once as UTF-8 and embedded in the response without being parsed or encoded again:
 * as the raw {@code structuredContent} value and as the JSON string of the text content (the same JSON, reference
 * §2.1). Written to a {@link WireBytes} response, the prepared bytes are not even copied: the response holds them
 * as segments of its own. A character-based generator writes the same text the usual way, so the output is
 * identical either way.
 */
final class EncodedJson extends JsonSerializable.Base {

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** The payload's JSON (UTF-8). */
    private final byte[] json;
    /** The body of a JSON string holding {@link #json}, or null when only Jackson's own encoder can write it. */
    private final AsciiStrings.Bytes quoted;

    private final boolean asString;

    private EncodedJson(byte[] json, AsciiStrings.Bytes quoted, boolean asString) {
        this.json = json;
        this.quoted = quoted;
        this.asString = asString;
    }

    /** {@code json} (UTF-8 JSON text as Jackson wrote it) embedded as a JSON value. */
    static JsonNode rawValue(byte[] json) {
        return new POJONode(new EncodedJson(json, null, false));
    }

    /** {@code json} (UTF-8 JSON text as Jackson wrote it) embedded as a JSON string holding that text. */
    static JsonNode string(byte[] json) {
        return new POJONode(new EncodedJson(json, quoted(json), true));
    }

    @Override
    public void serialize(JsonGenerator gen, SerializerProvider serializers) throws IOException {
        if (asString && quoted == null) {
            gen.writeString(new String(json, StandardCharsets.UTF_8));
        } else if (gen.getOutputTarget() instanceof WireBytes wire) {
            // The generator's separators and quote go through its own buffer, the prepared bytes are shared.
            if (asString) {
                gen.writeRawValue("\"");
                gen.flush();
                wire.share(quoted.array(), quoted.length());
                gen.writeRaw('"');
            } else {
                gen.writeRawValue("");
                gen.flush();
                wire.share(json, json.length);
            }
        } else if (asString) {
            gen.writeString(new String(json, StandardCharsets.UTF_8));
        } else {
            gen.writeRawValue(new String(json, StandardCharsets.UTF_8));
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
     * an escape: Jackson's own encoder then does it (its JSON output never holds one raw). Eight bytes at a time: a
     * word without any of those bytes is copied as part of a run.
     */
    static byte[] quote(byte[] json) {
        AsciiStrings.Bytes quoted = quoted(json);
        return quoted == null ? null : Arrays.copyOf(quoted.array(), quoted.length());
    }

    /** As {@link #quote}, without trimming the array to the length. */
    private static AsciiStrings.Bytes quoted(byte[] json) {
        int n = json.length;
        byte[] out = null;
        int o = 0;
        int run = 0;
        int k = 0;
        for (; k + 8 <= n; k += 8) {
            long word = (long) LONG.get(json, k);
            if (AsciiStrings.control(word) != 0) {
                return null;
            }
            for (long special = AsciiStrings.quoteOrBackslash(word); special != 0; special &= special - 1) {
                int at = k + (Long.numberOfTrailingZeros(special) >>> 3);
                out = AsciiStrings.room(out, o + at - run + 1 + (n - at), n);
                System.arraycopy(json, run, out, o, at - run);
                o += at - run;
                out[o++] = '\\';
                run = at;
            }
        }
        for (; k < n; k++) {
            int r = classify(json[k]);
            if (r < 0) {
                return null;
            }
            if (r > 0) {
                out = AsciiStrings.room(out, o + k - run + 1 + (n - k), n);
                System.arraycopy(json, run, out, o, k - run);
                o += k - run;
                out[o++] = '\\';
                run = k;
            }
        }
        if (out == null) {
            return new AsciiStrings.Bytes(json, n);
        }
        System.arraycopy(json, run, out, o, n - run);
        return new AsciiStrings.Bytes(out, o + n - run);
    }

    /** 0 for a byte copied as it is, 1 for one that takes a backslash, -1 for a control character. */
    private static int classify(byte b) {
        if (b >= 0 && b < 0x20) {
            return -1;
        }
        return b == '"' || b == '\\' ? 1 : 0;
    }
}
