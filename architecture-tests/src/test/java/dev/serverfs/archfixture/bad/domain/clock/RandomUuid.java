package dev.serverfs.archfixture.bad.domain.clock;

public final class RandomUuid {
    public Object read() {
        return java.util.UUID.randomUUID();
    }
}
