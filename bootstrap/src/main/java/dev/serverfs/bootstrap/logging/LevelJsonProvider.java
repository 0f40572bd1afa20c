package dev.serverfs.bootstrap.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import net.logstash.logback.composite.AbstractFieldJsonProvider;

/**
 * Writes {@code "level"} with the reference's names ({@code DEBUG}, {@code INFO}, {@code WARNING}, {@code ERROR}).
 * Referenced by class name from {@code logback.xml}, hence public.
 */
public final class LevelJsonProvider extends AbstractFieldJsonProvider<ILoggingEvent> {

    public LevelJsonProvider() {
        setFieldName("level");
    }

    @Override
    public void writeTo(JsonGenerator generator, ILoggingEvent event) throws IOException {
        generator.writeStringField(getFieldName(), ServerFsLogging.wireName(event.getLevel()));
    }
}
