package dev.serverfs.archfixture.bad.domain.clock;

public final class ZonedDateTimeNow {
    public Object read() {
        return java.time.ZonedDateTime.now();
    }
}
