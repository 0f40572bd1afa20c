package dev.serverfs.archfixture.bad.domain.clock;

public final class NewRandom {
    public Object read() {
        return new java.util.Random();
    }
}
