package dev.serverfs.archfixture.bad.domain;

public final class EnvironmentReading {
    public String mode() {
        return System.getenv("SERVERFS_MODE");
    }
}
