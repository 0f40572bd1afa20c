package dev.serverfs.archfixture.bad.domain.clock;

public final class CurrentTimeMillis {
    public Object read() {
        return System.currentTimeMillis();
    }
}
