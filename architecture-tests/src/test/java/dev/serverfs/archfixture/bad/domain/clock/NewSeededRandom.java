package dev.serverfs.archfixture.bad.domain.clock;

public final class NewSeededRandom {
    public Object read() {
        return new java.util.Random(42L);
    }
}
