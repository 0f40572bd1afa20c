package dev.serverfs.adapters.fs.linux;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * A small bounded pool of reusable native scratch objects. Every MCP call runs on a fresh virtual thread, so
 * per-thread scratch memory was rebuilt on every call and only returned when a GC happened to run (issue 10 §4b);
 * a pool reuses the same few segments whatever thread asks. A borrower that finds the pool empty allocates a new
 * object; one returned to a full pool is dropped (its automatic arena frees it). Lock-free and thread-safe.
 */
public final class ScratchPool<T> {

    private static final int SLOTS = 64;

    private final AtomicReferenceArray<T> slots = new AtomicReferenceArray<>(SLOTS);
    private final Supplier<T> factory;

    public ScratchPool(Supplier<T> factory) {
        this.factory = factory;
    }

    /** A pooled object for the caller's exclusive use until {@link #release}. */
    public T acquire() {
        int start = home();
        for (int i = 0; i < SLOTS; i++) {
            int k = (start + i) & (SLOTS - 1);
            T item = slots.get(k);
            if (item != null && slots.compareAndSet(k, item, null)) {
                return item;
            }
        }
        return factory.get();
    }

    /** Gives {@code item} back; the caller must not use it afterwards. */
    public void release(T item) {
        int start = home();
        for (int i = 0; i < SLOTS; i++) {
            int k = (start + i) & (SLOTS - 1);
            if (slots.get(k) == null && slots.compareAndSet(k, null, item)) {
                return;
            }
        }
    }

    /** Where a thread starts looking, so concurrent callers mostly touch different slots. */
    private static int home() {
        return (int) (Thread.currentThread().threadId() * 0x9E3779B9L >>> 16) & (SLOTS - 1);
    }
}
