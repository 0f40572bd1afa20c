package dev.serverfs.archfixture.bad.application.port.in;

import dev.serverfs.archfixture.bad.application.port.out.LeakyStore;

/** An in-port that hands its callers an out-port: the adapter behind it would leak to the driving side. */
public interface StoreLeakingUseCase {
    LeakyStore store();
}
