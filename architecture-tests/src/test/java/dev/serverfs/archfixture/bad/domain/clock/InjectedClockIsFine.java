package dev.serverfs.archfixture.bad.domain.clock;

public final class InjectedClockIsFine {
    public Object read() {
        return java.time.Instant.now(java.time.Clock.fixed(java.time.Instant.EPOCH, java.time.ZoneOffset.UTC));
    }
}
