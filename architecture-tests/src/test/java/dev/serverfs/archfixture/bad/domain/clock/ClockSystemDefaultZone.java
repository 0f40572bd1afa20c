package dev.serverfs.archfixture.bad.domain.clock;

public final class ClockSystemDefaultZone {
    public Object read() {
        return java.time.Clock.systemDefaultZone();
    }
}
