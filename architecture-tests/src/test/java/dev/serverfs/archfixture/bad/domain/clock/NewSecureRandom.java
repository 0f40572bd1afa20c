package dev.serverfs.archfixture.bad.domain.clock;

public final class NewSecureRandom {
    public Object read() {
        return new java.security.SecureRandom();
    }
}
