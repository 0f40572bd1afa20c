package dev.serverfs.adapters.ingress;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.core.util.RecyclerPool;

/**
 * The JSON factory of this adapter's mappers. Jackson's default recycles its buffers per thread, and all of this
 * adapter's JSON work runs on virtual threads, one per request or call: that cache was a new set of buffers per
 * request, kept until the thread was collected. A small pool shared by all threads reuses them for real.
 */
final class IngressJson {

    private static final RecyclerPool<BufferRecycler> RECYCLERS = JsonRecyclerPools.newBoundedPool(16);

    private IngressJson() {}

    static JsonFactory factory() {
        return JsonFactory.builder().recyclerPool(RECYCLERS).build();
    }
}
