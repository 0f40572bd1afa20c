package dev.serverfs.archfixture.bad.cycle.second;

import dev.serverfs.archfixture.bad.cycle.first.First;

public final class Second {
    public First peer() {
        return new First();
    }
}
