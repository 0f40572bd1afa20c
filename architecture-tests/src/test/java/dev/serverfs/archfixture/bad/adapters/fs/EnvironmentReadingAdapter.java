package dev.serverfs.archfixture.bad.adapters.fs;

/** Reads its setting from the environment instead of being handed it by bootstrap. */
public final class EnvironmentReadingAdapter {
    public String home() {
        return System.getenv("HOME");
    }
}
