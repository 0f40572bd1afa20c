package dev.serverfs.archfixture.bad.domain.clock;

public final class LocalTimeNow {
    public Object read() {
        return java.time.LocalTime.now();
    }
}
