package dev.serverfs.archfixture.bad.provider;

import dev.serverfs.archfixture.bad.application.service.AdapterCallingService;

/** The shared provider library using an application service instead of a port. */
public final class ServiceReachingLibrary {
    public Object run(AdapterCallingService service) {
        return service.run();
    }
}
