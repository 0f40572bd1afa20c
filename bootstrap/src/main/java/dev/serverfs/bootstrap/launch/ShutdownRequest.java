package dev.serverfs.bootstrap.launch;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The JVM's shutdown (SIGTERM, SIGINT) handed to the main thread, which stops what it started in order and logs it:
 * the shutdown hook only signals and then waits for {@link #stopped}, at most the grace period.
 */
public final class ShutdownRequest {

    private final CountDownLatch requested = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);

    private ShutdownRequest() {}

    /** Installs the hook; the JVM exits at the latest {@code grace} after the signal. */
    public static ShutdownRequest install(Duration grace) {
        ShutdownRequest request = new ShutdownRequest();
        Runtime.getRuntime()
                .addShutdownHook(Thread.ofPlatform().name("serverfs-shutdown").unstarted(() -> {
                    request.requested.countDown();
                    try {
                        request.stopped.await(grace.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
        return request;
    }

    /** Blocks until the JVM is asked to stop. */
    public void await() throws InterruptedException {
        requested.await();
    }

    /** The orderly stop is complete: the JVM may exit. */
    public void stopped() {
        stopped.countDown();
    }
}
