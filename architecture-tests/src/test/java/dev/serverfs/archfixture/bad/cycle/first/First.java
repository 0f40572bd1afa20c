package dev.serverfs.archfixture.bad.cycle.first;

import dev.serverfs.archfixture.bad.cycle.second.Second;

public final class First {
    public Second peer() {
        return new Second();
    }
}
