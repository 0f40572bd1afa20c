package dev.serverfs.archfixture.bad.provider;

import dev.serverfs.archfixture.bad.adapters.fs.FsThing;

/** The shared provider library reaching into an adapter: every adapter using it would depend on that adapter. */
public final class AdapterReachingLibrary {
    public Object peer() {
        return new FsThing();
    }
}
