package dev.serverfs.bootstrap.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The build's version, filtered into {@code serverfs-version.properties} by Maven. */
public final class ServerFsVersion {

    private static final String VERSION = load();

    private ServerFsVersion() {}

    private static String load() {
        try (InputStream in = ServerFsVersion.class.getResourceAsStream("/serverfs-version.properties")) {
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String version() {
        return VERSION;
    }
}
