package dev.serverfs.bootstrap.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import net.logstash.logback.encoder.LoggingEventCompositeJsonEncoder;
import org.slf4j.event.KeyValuePair;

/**
 * The {@code logback.xml} encoder: the same line as its providers write ({@code timestamp}, {@code level},
 * {@code event}, the key/values, then the error type and, at DEBUG, the stack), with the common case written
 * here. The composite encoder keeps its generator and buffer per thread, and every MCP call runs on a fresh
 * virtual thread, so each {@code tool_call} audit line rebuilt them (about 20 KB and half of a {@code stat_file}
 * call's time in-process, issue 15). An event without a throwable whose values are strings, booleans, integers,
 * longs or decimals is written with one generator from a factory whose buffers are shared by all threads; any
 * other event goes to the composite encoder. {@code PooledJsonEncoderTest} checks both write the same bytes.
 */
public final class PooledJsonEncoder extends LoggingEventCompositeJsonEncoder {

    private static final int RECYCLED_BUFFER_SETS = 16;
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.newBoundedPool(RECYCLED_BUFFER_SETS))
            .build();
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final byte[] NEWLINE = {'\n'};

    @Override
    public byte[] encode(ILoggingEvent event) {
        if (!plain(event)) {
            return super.encode(event);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        write(event, out);
        return out.toByteArray();
    }

    @Override
    public void encode(ILoggingEvent event, OutputStream out) throws IOException {
        if (!plain(event)) {
            super.encode(event, out);
            return;
        }
        out.write(encode(event));
    }

    /** The composite encoder's line, for the test that compares both. */
    byte[] composite(ILoggingEvent event) {
        return super.encode(event);
    }

    static boolean plain(ILoggingEvent event) {
        if (event.getThrowableProxy() != null || event.getFormattedMessage() == null) {
            return false;
        }
        List<KeyValuePair> pairs = event.getKeyValuePairs();
        if (pairs != null) {
            for (KeyValuePair pair : pairs) {
                Object v = pair.value;
                boolean simple = v instanceof String
                        || v instanceof Boolean
                        || v instanceof Integer
                        || v instanceof Long
                        || v instanceof BigDecimal;
                if (pair.key == null || !simple) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void write(ILoggingEvent event, ByteArrayOutputStream out) {
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("timestamp", TIMESTAMP.format(Instant.ofEpochMilli(event.getTimeStamp())));
            g.writeStringField("level", ServerFsLogging.wireName(event.getLevel()));
            g.writeStringField("event", event.getFormattedMessage());
            List<KeyValuePair> pairs = event.getKeyValuePairs();
            if (pairs != null) {
                for (KeyValuePair pair : pairs) {
                    g.writeFieldName(pair.key);
                    switch (pair.value) {
                        case String s -> g.writeString(s);
                        case Boolean b -> g.writeBoolean(b);
                        case Integer i -> g.writeNumber(i);
                        case Long l -> g.writeNumber(l);
                        case BigDecimal d -> g.writeNumber(d);
                        default -> throw new IllegalStateException("checked by plain()");
                    }
                }
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.write(NEWLINE, 0, 1);
    }
}
