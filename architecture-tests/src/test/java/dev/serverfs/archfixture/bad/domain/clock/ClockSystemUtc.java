package dev.serverfs.archfixture.bad.domain.clock;

public final class ClockSystemUtc {
    public Object read() {
        return java.time.Clock.systemUTC();
    }
}
