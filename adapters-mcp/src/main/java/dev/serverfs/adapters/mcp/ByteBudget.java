package dev.serverfs.adapters.mcp;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes that requests together may hold in memory at once: one budget for request bodies in flight, one for
 * response bodies not yet written to their clients. Bytes are reserved as they arrive (or when an answer is
 * ready) and released when their request is answered (or the answer is written or abandoned), so memory is
 * bounded by the budget however many clients send large bodies or leave large answers unread; a request that
 * would pass it is refused (503) instead of running the JVM out of heap.
 */
final class ByteBudget {

    private final long capacity;
    private final AtomicLong reserved = new AtomicLong();

    ByteBudget(long capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.capacity = capacity;
    }

    /** Reserves {@code bytes}; false, reserving nothing, when that would pass the capacity. */
    boolean tryReserve(long bytes) {
        long now;
        do {
            now = reserved.get();
            if (bytes > capacity - now) {
                return false;
            }
        } while (!reserved.compareAndSet(now, now + bytes));
        return true;
    }

    void release(long bytes) {
        reserved.addAndGet(-bytes);
    }

    long reserved() {
        return reserved.get();
    }
}
