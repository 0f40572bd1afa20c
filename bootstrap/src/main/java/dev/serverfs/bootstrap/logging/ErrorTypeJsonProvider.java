package dev.serverfs.bootstrap.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import net.logstash.logback.composite.AbstractFieldJsonProvider;

/**
 * Writes {@code "error_type"}: the class name of an attached exception, which is always safe to log, unlike its
 * message (which may hold a host path). Referenced by class name from {@code logback.xml}, hence public.
 */
public final class ErrorTypeJsonProvider extends AbstractFieldJsonProvider<ILoggingEvent> {

    public ErrorTypeJsonProvider() {
        setFieldName("error_type");
    }

    @Override
    public void writeTo(JsonGenerator generator, ILoggingEvent event) throws IOException {
        IThrowableProxy thrown = event.getThrowableProxy();
        if (thrown != null) {
            generator.writeStringField(getFieldName(), thrown.getClassName());
        }
    }
}
