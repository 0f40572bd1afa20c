package dev.serverfs.archfixture.bad.domain.clock;

public final class LocalDateNow {
    public Object read() {
        return java.time.LocalDate.now();
    }
}
