package dev.serverfs.archfixture.bad.adapters.mcp;

/** Reads system properties, directly and through the JDK's boxed-type shortcuts. */
public final class PropertyReadingAdapter {
    public String resolution() {
        return System.getProperty("serverfs.fs.resolution");
    }

    public boolean verbose() {
        return Boolean.getBoolean("serverfs.verbose");
    }

    public Integer port() {
        return Integer.getInteger("serverfs.port");
    }
}
