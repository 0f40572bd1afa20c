package dev.serverfs.archfixture.good.domain;

import java.time.Clock;
import java.time.Instant;

public record Revision(Instant at) {
    public static Revision now(Clock clock) {
        return new Revision(Instant.now(clock));
    }
}
