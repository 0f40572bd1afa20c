package dev.serverfs.adapters.mcp;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The request-body bytes all requests together may hold in memory at once. Bytes are reserved as they arrive and
 * released when their request is answered, so memory is bounded by this budget however many large bodies arrive
 * concurrently; a request that would pass it is refused (503) instead of running the JVM out of heap.
 */
final class BodyBudget {

    private final long capacity;
    private final AtomicLong reserved = new AtomicLong();

    BodyBudget(long capacity) {
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
