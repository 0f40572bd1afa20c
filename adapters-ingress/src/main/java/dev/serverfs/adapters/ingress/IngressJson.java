package dev.serverfs.adapters.ingress;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapper of this adapter ({@link #MAPPER}) and its factory. Jackson's default recycles its buffers per thread, and all of this
 * adapter's JSON work runs on virtual threads, one per request or call: that cache was a new set of buffers per
 * request, kept until the thread was collected. A small pool shared by all threads reuses them for real.
 */
final class IngressJson {

    private static final RecyclerPool<BufferRecycler> RECYCLERS = JsonRecyclerPools.newBoundedPool(16);

    /** Shared by the sidecar (which reads requests strictly, through a reader of it) and its client. */
    static final JsonMapper MAPPER = JsonMapper.builder(factory()).build();

    private IngressJson() {}

    static JsonFactory factory() {
        return JsonFactory.builder().recyclerPool(RECYCLERS).build();
    }
}
