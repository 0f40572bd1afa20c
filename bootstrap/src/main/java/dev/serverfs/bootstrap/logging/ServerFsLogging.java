package dev.serverfs.bootstrap.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import java.util.Locale;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code SERVERFS_LOG_LEVEL} (reference §9.1: {@code DEBUG}, {@code INFO}, {@code WARNING}, {@code ERROR},
 * anything else {@code INFO}) to the root logger. The JSON line format itself is in {@code logback.xml}.
 */
public final class ServerFsLogging {

    private ServerFsLogging() {}

    /** Sets the root level; {@code WARNING} is logback's {@code WARN}. Unknown names mean {@code INFO}. */
    public static void applyLevel(String serverFsLevel) {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (factory instanceof LoggerContext context) {
            context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(toLogback(serverFsLevel));
        }
    }

    static Level toLogback(String serverFsLevel) {
        String name = serverFsLevel == null ? "" : serverFsLevel.strip().toUpperCase(Locale.ROOT);
        return switch (name) {
            case "DEBUG" -> Level.DEBUG;
            case "WARNING" -> Level.WARN;
            case "ERROR" -> Level.ERROR;
            default -> Level.INFO;
        };
    }

    /** The reference's level names: logback's {@code WARN} is written {@code WARNING}. */
    static String wireName(Level level) {
        return level.toInt() == Level.WARN_INT ? "WARNING" : level.toString();
    }
}
