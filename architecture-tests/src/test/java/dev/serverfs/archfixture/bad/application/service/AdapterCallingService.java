package dev.serverfs.archfixture.bad.application.service;

import dev.serverfs.archfixture.bad.adapters.fs.FsThing;

public final class AdapterCallingService {
    public Object run() {
        return new FsThing();
    }
}
