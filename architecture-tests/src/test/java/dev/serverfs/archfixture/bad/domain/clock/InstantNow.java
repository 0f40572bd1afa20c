package dev.serverfs.archfixture.bad.domain.clock;

public final class InstantNow {
    public Object read() {
        return java.time.Instant.now();
    }
}
