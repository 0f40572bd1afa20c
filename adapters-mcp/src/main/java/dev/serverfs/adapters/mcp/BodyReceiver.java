package dev.serverfs.adapters.mcp;

import io.undertow.io.Receiver;
import io.undertow.server.HttpServerExchange;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.xnio.IoUtils;

/**
 * Reads one request body on the I/O thread with Undertow's non-blocking receiver, never on a worker: a blocking
 * read that has to wait for a later TCP segment opens an XNIO selector for the waiting thread (two descriptors), and
 * with a fresh virtual thread per request those piled up until a GC. Every chunk is reserved from the shared
 * {@link BodyBudget} as it arrives; a body over the per-request limit is refused 413, one that finds the budget
 * spent 503. Before a refusal is answered up to {@link #DRAIN_BYTES} more are read and dropped, so the client is
 * still reading when the answer comes rather than being reset mid-upload.
 */
final class BodyReceiver implements Receiver.PartialBytesCallback, Receiver.ErrorCallback {

    /** What becomes of a request once its body is read or refused; called on the I/O thread, once. */
    interface Target {
        void received(HttpServerExchange exchange, Body body);

        void refused(HttpServerExchange exchange, Refusal refusal, long readBytes);
    }

    enum Refusal {
        TOO_LARGE,
        BUSY
    }

    /** After a refusal, this much more is read and dropped so the client sees the answer. */
    static final long DRAIN_BYTES = 8L * 1024 * 1024;

    private final BodyBudget budget;
    private final long limit;
    private final Target target;
    private final List<byte[]> chunks = new ArrayList<>();
    private long size;
    private long dropped;
    private Refusal refusal;
    private boolean finished;

    private BodyReceiver(BodyBudget budget, long limit, Target target) {
        this.budget = budget;
        this.limit = limit;
        this.target = target;
    }

    /** Starts reading the exchange's body; must run on its I/O thread, before anything else touches the body. */
    static void receive(HttpServerExchange exchange, BodyBudget budget, long limit, Target target) {
        // Undertow's own default entity ceiling would answer a bare 413 below our limit; the limit is ours.
        exchange.setMaxEntitySize(-1);
        BodyReceiver receiver = new BodyReceiver(budget, limit, Objects.requireNonNull(target, "target"));
        if (exchange.getRequestContentLength() > limit) {
            receiver.refusal = Refusal.TOO_LARGE;
        }
        exchange.getRequestReceiver().receivePartialBytes(receiver, receiver);
    }

    @Override
    public void handle(HttpServerExchange exchange, byte[] data, boolean last) {
        if (finished) {
            return;
        }
        if (refusal == null) {
            keep(data);
        } else {
            dropped += data.length;
        }
        if (refusal != null && (last || dropped >= DRAIN_BYTES)) {
            finished = true;
            exchange.getRequestReceiver().pause();
            target.refused(exchange, refusal, size + dropped);
        } else if (last) {
            finished = true;
            target.received(exchange, new Body(chunks, size, budget));
        }
    }

    private void keep(byte[] data) {
        if (data.length == 0) {
            return;
        }
        if (size + data.length > limit) {
            refuse(Refusal.TOO_LARGE, data.length);
        } else if (!budget.tryReserve(data.length)) {
            refuse(Refusal.BUSY, data.length);
        } else {
            chunks.add(data);
            size += data.length;
        }
    }

    private void refuse(Refusal why, int chunk) {
        refusal = why;
        budget.release(size);
        dropped = size + chunk;
        size = 0;
        chunks.clear();
    }

    @Override
    public void error(HttpServerExchange exchange, IOException e) {
        if (finished) {
            return;
        }
        finished = true;
        budget.release(size);
        chunks.clear();
        if (e instanceof Receiver.RequestToLargeException) {
            // A declared length past 2 GiB: nothing was read, the answer is the 413 of any oversized body.
            target.refused(exchange, Refusal.TOO_LARGE, 0);
        } else {
            // The client went away or broke the framing mid-body: nobody is left to answer.
            IoUtils.safeClose(exchange.getConnection());
        }
    }

    /** A complete body, holding its share of the budget until {@link #release()}. */
    static final class Body {
        private final List<byte[]> chunks;
        private final long size;
        private final BodyBudget budget;
        private final AtomicBoolean released = new AtomicBoolean();

        private Body(List<byte[]> chunks, long size, BodyBudget budget) {
            this.chunks = List.copyOf(chunks);
            this.size = size;
            this.budget = budget;
        }

        /** The body as the chunks it arrived in, without copying them into one array. */
        InputStream stream() {
            List<InputStream> parts = new ArrayList<>(chunks.size());
            chunks.forEach(c -> parts.add(new ByteArrayInputStream(c)));
            return new SequenceInputStream(Collections.enumeration(parts));
        }

        long size() {
            return size;
        }

        /** Gives the body's bytes back to the budget; later calls do nothing. */
        void release() {
            if (released.compareAndSet(false, true)) {
                budget.release(size);
            }
        }
    }
}
