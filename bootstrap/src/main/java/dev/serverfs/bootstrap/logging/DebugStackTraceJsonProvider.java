package dev.serverfs.bootstrap.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import net.logstash.logback.composite.loggingevent.StackTraceJsonProvider;

/**
 * Writes {@code "stack_trace"} only while the root level is {@code DEBUG}: exception messages may contain host paths,
 * and the reference keeps internal detail to DEBUG (contract reference §12). Referenced from {@code logback.xml}.
 */
public final class DebugStackTraceJsonProvider extends StackTraceJsonProvider {

    public DebugStackTraceJsonProvider() {
        setFieldName("stack_trace");
    }

    @Override
    public void writeTo(JsonGenerator generator, ILoggingEvent event) throws IOException {
        if (getContext() instanceof LoggerContext context
                && context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel().toInt() <= Level.DEBUG_INT) {
            super.writeTo(generator, event);
        }
    }
}
