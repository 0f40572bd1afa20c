package dev.serverfs.archfixture.bad.domain.clock;

public final class OffsetDateTimeNow {
    public Object read() {
        return java.time.OffsetDateTime.now();
    }
}
