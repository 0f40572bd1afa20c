package dev.serverfs.archfixture.bad.application.service;

/** A service that builds another service itself: wiring outside bootstrap. */
public final class AssemblingService {
    public Object run() {
        return new ProcessStartingService();
    }
}
