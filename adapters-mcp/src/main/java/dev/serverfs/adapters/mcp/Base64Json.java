package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.POJONode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Bytes embedded as a JSON string of their standard padded base64 (RFC 4648 §4), encoded only when the response is
 * written: straight into one array that a {@link WireBytes} response then holds as a segment of its own, with no
 * base64 {@code String} and no copy of it into the response (issue 24 item 4: an 8 MiB download had been held as
 * its bytes, a base64 string and the response's copy of that string). Base64 needs no JSON escape.
 */
final class Base64Json extends JsonSerializable.Base {

    private final byte[] bytes;

    private Base64Json(byte[] bytes) {
        this.bytes = bytes;
    }

    /** {@code bytes} (never changed afterwards) as a JSON string of their base64. */
    static JsonNode of(byte[] bytes) {
        return new POJONode(new Base64Json(bytes));
    }

    /** How many bytes the JSON string takes on the wire, quotes included. */
    static long wireLength(long bytes) {
        return 4 * ((bytes + 2) / 3) + 2;
    }

    @Override
    public void serialize(JsonGenerator gen, SerializerProvider serializers) throws IOException {
        byte[] encoded = Base64.getEncoder().encode(bytes);
        if (gen.getOutputTarget() instanceof WireBytes wire) {
            gen.writeRawValue("\"");
            gen.flush();
            wire.share(encoded, encoded.length);
            gen.writeRaw('"');
        } else {
            gen.writeString(new String(encoded, StandardCharsets.US_ASCII));
        }
    }

    @Override
    public void serializeWithType(JsonGenerator gen, SerializerProvider serializers, TypeSerializer typeSer)
            throws IOException {
        serialize(gen, serializers);
    }
}
