package dev.serverfs.archfixture.bad.adapters.mcp;

import dev.serverfs.archfixture.bad.application.service.ReadFileServiceImpl;

/** Builds and calls a service itself instead of being handed its in-port. */
public final class ServiceCallingTool {
    public Object call() {
        return new ReadFileServiceImpl();
    }
}
