package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/** The adapter's one JSON seam: strict parsing of requests, snake_case writing of tool payloads. */
final class Json {

    // Declared before the mappers: static fields are initialised in order, and the mappers' factories use it.
    private static final int RECYCLED_BUFFER_SETS = 64;
    private static final RecyclerPool<BufferRecycler> RECYCLERS =
            JsonRecyclerPools.newBoundedPool(RECYCLED_BUFFER_SETS);

    /**
     * Scratch buffers of {@link #writePayload}, at most {@value #SCRATCH_BUFFERS} kept, none above {@value
     * #SCRATCH_MAX_POOLED_BYTES} bytes (a larger payload's buffer is left to the collector): at most 8 MiB held.
     */
    private static final int SCRATCH_BUFFERS = 8;

    private static final int SCRATCH_INITIAL_BYTES = 8 * 1024;
    private static final int SCRATCH_MAX_POOLED_BYTES = 1 << 20;
    private static final BlockingQueue<byte[]> SCRATCH = new ArrayBlockingQueue<>(SCRATCH_BUFFERS);

    /**
     * Wire messages: duplicate keys and trailing garbage are parse errors. Written as UTF-8 bytes, characters
     * outside the BMP as their 4-byte UTF-8 form (as a {@code String} encoded to UTF-8 would be), not as escapes.
     * This mapper only ever reads trees, so a duplicate is found by the tree itself (its map already holds the key)
     * rather than by the parser's strict detection, which kept a second set of names for every object of three keys
     * or more (a 2026-07-28 request's {@code params} and {@code _meta} both: ~500 bytes a request).
     */
    static final ObjectMapper WIRE = JsonMapper.builder(factory())
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();

    /**
     * Tool payload records: component {@code binaryTransfer} is written as {@code binary_transfer}. Also binds tool
     * arguments into parameter records the same way ({@link ToolArguments#bind}).
     */
    static final ObjectMapper PAYLOAD = JsonMapper.builder(factory())
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .addModule(ToolArguments.BINDING)
            // Binding never converts between JSON types ("5" is no integer, 1 no boolean, 5 no string).
            .withCoercionConfigDefaults(c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.String, CoercionAction.Fail))
            .addModule(new SimpleModule().addSerializer(String.class, new AsciiStrings()))
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();

    private Json() {}

    /**
     * Jackson's default recycles its parse and write buffers per thread; every MCP call runs on a fresh virtual
     * thread, so that "recycling" allocated a new set per call and kept it until the thread was collected. A
     * bounded pool shared by all threads (and by both mappers) reuses them for real and holds at most
     * {@value #RECYCLED_BUFFER_SETS} sets.
     */
    static JsonFactory factory() {
        return JsonFactory.builder().recyclerPool(RECYCLERS).build();
    }

    static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    /**
     * A tool payload as UTF-8 JSON, written straight from the record (no intermediate tree) into a pooled scratch
     * buffer and copied out once at its size: Jackson's own byte builder grew block by block and then joined the
     * blocks, twice the payload in garbage (a 64 KiB read's 67 KB payload cost ≈ 180 KB).
     */
    static byte[] writePayload(Object payload) {
        byte[] pooled = SCRATCH.poll();
        Scratch out = new Scratch(pooled != null ? pooled : new byte[SCRATCH_INITIAL_BYTES]);
        try {
            PAYLOAD.writeValue(out, payload);
        } catch (IOException e) {
            throw new IllegalStateException("tool payload could not be written", e);
        }
        byte[] json = out.toByteArray();
        if (out.buffer().length <= SCRATCH_MAX_POOLED_BYTES) {
            SCRATCH.offer(out.buffer());
        }
        return json;
    }

    /** A {@link ByteArrayOutputStream} that starts on a given (pooled) array and gives back the one it ended on. */
    private static final class Scratch extends ByteArrayOutputStream {
        Scratch(byte[] start) {
            super(0);
            buf = start;
        }

        byte[] buffer() {
            return buf;
        }
    }

    /** UTF-8 bytes of a response body, encoded by the generator itself (no intermediate {@code String}). */
    static byte[] writeBytes(JsonNode node) {
        return writeWire(node).toByteArray();
    }

    /** A response body as segments: prepared payload bytes in it are shared, not copied ({@link WireBytes}). */
    static WireBytes writeWire(JsonNode node) {
        WireBytes out = new WireBytes();
        try {
            WIRE.writeValue(out, node);
        } catch (IOException e) {
            throw new IllegalStateException("JSON tree could not be written", e);
        }
        return out;
    }

    /** Parses JSON this adapter wrote itself. */
    static JsonNode read(byte[] json) {
        try {
            return WIRE.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("JSON text could not be read", e);
        }
    }
}
