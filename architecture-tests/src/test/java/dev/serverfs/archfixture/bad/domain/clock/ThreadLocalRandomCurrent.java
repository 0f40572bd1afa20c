package dev.serverfs.archfixture.bad.domain.clock;

public final class ThreadLocalRandomCurrent {
    public Object read() {
        return java.util.concurrent.ThreadLocalRandom.current();
    }
}
