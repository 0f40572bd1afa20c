package dev.serverfs.archfixture.bad.application.service;

import java.io.IOException;

public final class ProcessStartingService {
    public Object run() throws IOException {
        return new ProcessBuilder("true").start();
    }
}
