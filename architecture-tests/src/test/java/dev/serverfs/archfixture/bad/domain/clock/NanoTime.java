package dev.serverfs.archfixture.bad.domain.clock;

public final class NanoTime {
    public Object read() {
        return System.nanoTime();
    }
}
