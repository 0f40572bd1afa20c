package dev.serverfs.adapters.mcp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Bounds on what one client can hold of the transport (issue 24 item 5): at most {@code maxConnections} open at
 * once (more are refused at accept with a 503 and closed, so the process keeps descriptors for real work), and a
 * request body must arrive whole within {@code bodyTimeout} and, after {@code bodyRateGrace}, at no less than
 * {@code bodyMinBytesPerSecond} on average; a body that misses either is cut and its connection closed. A large
 * answer (one held against the answer budget) must be taken by its client within {@code responseTimeout}, or its
 * connection is closed and its bytes freed.
 */
public record TransportLimits(
        int maxConnections,
        Duration bodyTimeout,
        long bodyMinBytesPerSecond,
        Duration bodyRateGrace,
        Duration responseTimeout) {

    /** A body (up to the request limit, 11 MiB by default) has this long to arrive whole. */
    public static final Duration DEFAULT_BODY_TIMEOUT = Duration.ofSeconds(60);

    /** After {@link #DEFAULT_BODY_RATE_GRACE}, a body arriving slower than this on average is cut. */
    public static final long DEFAULT_BODY_MIN_BYTES_PER_SECOND = 1024;

    /** How long a body may arrive at any rate before the minimum rate is judged. */
    public static final Duration DEFAULT_BODY_RATE_GRACE = Duration.ofSeconds(5);

    /** A large answer has this long to be taken whole by its client (11 MiB at about 90 KiB/s). */
    public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(120);

    /** Connections never take more than this many descriptors, whatever the descriptor limit. */
    static final int MAX_DEFAULT_CONNECTIONS = 10_000;

    public TransportLimits {
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("maxConnections must be positive");
        }
        Objects.requireNonNull(bodyTimeout, "bodyTimeout");
        Objects.requireNonNull(bodyRateGrace, "bodyRateGrace");
        Objects.requireNonNull(responseTimeout, "responseTimeout");
        if (!responseTimeout.isPositive()) {
            throw new IllegalArgumentException("responseTimeout must be positive");
        }
        if (!bodyTimeout.isPositive() || bodyRateGrace.isNegative()) {
            throw new IllegalArgumentException("bodyTimeout must be positive and bodyRateGrace not negative");
        }
        if (bodyMinBytesPerSecond <= 0) {
            throw new IllegalArgumentException("bodyMinBytesPerSecond must be positive");
        }
    }

    /** The defaults, with the connection cap derived from this process's descriptor limit. */
    public static TransportLimits defaults() {
        return new TransportLimits(
                defaultMaxConnections(descriptorLimit()),
                DEFAULT_BODY_TIMEOUT,
                DEFAULT_BODY_MIN_BYTES_PER_SECOND,
                DEFAULT_BODY_RATE_GRACE,
                DEFAULT_RESPONSE_TIMEOUT);
    }

    /**
     * Half the descriptor limit, at most {@value #MAX_DEFAULT_CONNECTIONS}: the other half stays for files, walks,
     * the task store and provider pipes however many clients connect (2,030 slow bodies took all 2,048 in issue 24).
     */
    static int defaultMaxConnections(long descriptorLimit) {
        return (int) Math.max(1, Math.min(MAX_DEFAULT_CONNECTIONS, descriptorLimit / 2));
    }

    /**
     * This process's soft open-file limit, read from {@code /proc/self/limits}, or 4096 where it cannot be read. Not
     * through {@code com.sun.management}: a runtime linked without {@code jdk.management} (the container test's
     * jlink image) would fail at start-up.
     */
    static long descriptorLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    return parseSoftLimit(line.substring("Max open files".length()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc is not mounted: the default below
        }
        return 4096;
    }

    /** The first column of a {@code /proc/self/limits} line's values ({@code unlimited} → no cap below ours). */
    static long parseSoftLimit(String values) {
        String soft = values.strip().split("\\s+")[0];
        return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
    }

    public TransportLimits withMaxConnections(int connections) {
        return new TransportLimits(connections, bodyTimeout, bodyMinBytesPerSecond, bodyRateGrace, responseTimeout);
    }

    public TransportLimits withBodyDeadlines(Duration timeout, long minBytesPerSecond, Duration rateGrace) {
        return new TransportLimits(maxConnections, timeout, minBytesPerSecond, rateGrace, responseTimeout);
    }

    public TransportLimits withResponseTimeout(Duration timeout) {
        return new TransportLimits(maxConnections, bodyTimeout, bodyMinBytesPerSecond, bodyRateGrace, timeout);
    }
}
