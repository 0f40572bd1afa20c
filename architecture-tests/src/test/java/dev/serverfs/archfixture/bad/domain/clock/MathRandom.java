package dev.serverfs.archfixture.bad.domain.clock;

public final class MathRandom {
    public Object read() {
        return Math.random();
    }
}
