package dev.serverfs.bootstrap.launch;

import dev.serverfs.adapters.fs.LinuxWorkdirFileSystem;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Start-up work begun on a second thread while the main one configures logging, reads the configuration and wires
 * the server: each step is something the main thread reaches later and would otherwise do itself (it waits for the
 * step instead when it gets there first). Measured on a cached {@code serve} start of ≈ 1.2 s on the main thread:
 * the file system's FFM downcall stubs ≈ 0.25 s, the platform MBean server ≈ 0.2 s.
 */
public final class EarlyStart {

    private EarlyStart() {}

    /** For {@code serve}: the file system's system calls, then the platform MBean server. */
    public static void serve() {
        begin(List.of(LinuxWorkdirFileSystem::linkSystemCalls, EarlyStart::platformMBeanServer));
    }

    /** For the ingress sidecar: the platform MBean server. */
    public static void ingress() {
        begin(List.of(EarlyStart::platformMBeanServer));
    }

    /**
     * XNIO (under Undertow) registers its MBeans in the platform MBean server when a listener starts; building it
     * creates every platform MXBean and reads the settings of JFR's diagnostic commands.
     */
    private static void platformMBeanServer() {
        ManagementFactory.getPlatformMBeanServer();
    }

    private static void begin(List<Runnable> steps) {
        Thread.ofPlatform().daemon().name("serverfs-early-start").start(() -> steps.forEach(Runnable::run));
    }
}
