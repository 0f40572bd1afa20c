package dev.serverfs.bootstrap.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** The build's version, filtered into {@code serverfs-version.properties} by Maven. */
public final class ServerFsVersion implements CommandLine.IVersionProvider {

    private static final String VERSION = load();

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

    @Override
    public String[] getVersion() {
        return new String[] {"ServerFS " + VERSION};
    }
}
