package dev.serverfs.archfixture.bad.domain.clock;

public final class LocalDateTimeNow {
    public Object read() {
        return java.time.LocalDateTime.now();
    }
}
