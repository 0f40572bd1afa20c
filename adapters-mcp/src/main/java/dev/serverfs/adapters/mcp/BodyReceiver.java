package dev.serverfs.adapters.mcp;

import io.undertow.io.IoCallback;
import io.undertow.io.Receiver;
import io.undertow.io.Sender;
import io.undertow.server.HttpServerExchange;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.IoUtils;
import org.xnio.XnioExecutor;

/**
 * Reads one request body on the I/O thread with Undertow's non-blocking receiver, never on a worker: a blocking
 * read that has to wait for a later TCP segment opens an XNIO selector for the waiting thread (two descriptors), and
 * with a fresh virtual thread per request those piled up until a GC. Every chunk is reserved from the shared
 * {@link ByteBudget} as it arrives; a body over the per-request limit is refused 413 (from its {@code Content-Length}
 * alone when that says so, before any body byte is read), one that finds the budget spent 503. A refusal is answered
 * at once; then up to {@link #DRAIN_BYTES} more are read and dropped for at most {@link #LINGER} (a lingering
 * close), so a client still sending its body reads the answer instead of a reset, and the connection is closed.
 */
final class BodyReceiver implements Receiver.PartialBytesCallback, Receiver.ErrorCallback {

    /** What becomes of a request once its body is read or refused; called once. */
    interface Target {
        void received(HttpServerExchange exchange, Body body);

        /**
         * Answers a refused request on a connection that will not be reused, writing the answer with {@code then}
         * as its completion callback instead of ending the exchange (the receiver ends it once the answer is out).
         */
        void refused(HttpServerExchange exchange, Refusal refusal, long readBytes, IoCallback then);

        /** The body missed its deadline or minimum rate; its connection is being closed, unanswered. */
        void timedOut();
    }

    enum Refusal {
        TOO_LARGE,
        BUSY
    }

    /** After a refusal, at most this much more is read and dropped so the client sees the answer. */
    static final long DRAIN_BYTES = 8L * 1024 * 1024;

    /** After a refusal, the connection is closed this long after the answer at the latest. */
    static final Duration LINGER = Duration.ofSeconds(5);

    private static final long CHECK_PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final Logger log = LoggerFactory.getLogger(BodyReceiver.class);
    private static final AtomicIntegerFieldUpdater<BodyReceiver> LINGERING =
            AtomicIntegerFieldUpdater.newUpdater(BodyReceiver.class, "lingering");

    private final ByteBudget budget;
    private final long limit;
    private final TransportLimits deadlines;
    private final Target target;
    private final List<byte[]> chunks = new ArrayList<>();

    /** Counts the answer written and the drain done after a refusal; the exchange ends when both happened. */
    private volatile int lingering;

    private volatile XnioExecutor.Key lingerDeadline;
    private XnioExecutor.Key bodyWatch;
    /** When the body started to be watched (right after the first read found it incomplete); 0 until then. */
    private long started;

    private long size;
    private long dropped;
    private Refusal refusal;
    private boolean finished;

    private BodyReceiver(ByteBudget budget, long limit, TransportLimits deadlines, Target target) {
        this.budget = budget;
        this.limit = limit;
        this.deadlines = deadlines;
        this.target = target;
    }

    /**
     * Starts reading the exchange's body; must run on its I/O thread, before anything else touches the body. A body
     * not complete at once is watched against the deadlines of {@code limits} (no timer for one that is).
     */
    static void receive(
            HttpServerExchange exchange, ByteBudget budget, long limit, TransportLimits limits, Target target) {
        // Undertow's own default entity ceiling would answer a bare 413 below our limit; the limit is ours.
        exchange.setMaxEntitySize(-1);
        BodyReceiver receiver = new BodyReceiver(budget, limit, limits, Objects.requireNonNull(target, "target"));
        if (exchange.getRequestContentLength() > limit) {
            // The headers already say it: refused before a body byte is read or waited for (issue 24 item 8).
            receiver.refuse(exchange, Refusal.TOO_LARGE);
        }
        exchange.getRequestReceiver().receivePartialBytes(receiver, receiver);
        if (!receiver.finished && receiver.refusal == null) {
            receiver.watch(exchange);
        }
    }

    /**
     * Checks the body's deadlines on the I/O thread (the thread of every callback of this receiver): whole within
     * {@code bodyTimeout}, and after {@code bodyRateGrace} at least {@code bodyMinBytesPerSecond} on average (or
     * all of a declared length). A slow body holds a connection, a descriptor and budget bytes: it is cut.
     */
    private void watch(HttpServerExchange exchange) {
        if (started == 0) {
            // Taken here, not per request: a body that arrives with its headers never needs it.
            started = System.nanoTime();
        }
        long elapsed = System.nanoTime() - started;
        long timeout = deadlines.bodyTimeout().toNanos();
        long grace = deadlines.bodyRateGrace().toNanos();
        long received = size + dropped;
        String missed = null;
        if (elapsed >= timeout) {
            missed = "total";
        } else if (elapsed >= grace) {
            long owed = (long) ((elapsed - grace) / 1e9 * deadlines.bodyMinBytesPerSecond());
            long declared = exchange.getRequestContentLength();
            if (received < (declared >= 0 ? Math.min(declared, owed) : owed)) {
                missed = "rate";
            }
        }
        if (missed != null) {
            timedOut(exchange, missed, received, elapsed);
            return;
        }
        // Next look: at the grace, then every second (or at the total deadline, if sooner).
        long next = elapsed < grace ? grace - elapsed : Math.min(CHECK_PERIOD_NANOS, timeout - elapsed);
        bodyWatch = exchange.getIoThread()
                .executeAfter(
                        () -> {
                            if (!finished) {
                                watch(exchange);
                            }
                        },
                        Math.max(1, TimeUnit.NANOSECONDS.toMillis(next)),
                        TimeUnit.MILLISECONDS);
    }

    private void timedOut(HttpServerExchange exchange, String missed, long received, long elapsed) {
        finished = true;
        budget.release(size);
        size = 0;
        chunks.clear();
        log.atInfo()
                .setMessage("mcp_request_body_timeout")
                .addKeyValue("deadline", missed)
                .addKeyValue("received_bytes", received)
                .addKeyValue("elapsed_ms", TimeUnit.NANOSECONDS.toMillis(elapsed))
                .log();
        IoUtils.safeClose(exchange.getConnection());
        target.timedOut();
    }

    @Override
    public void handle(HttpServerExchange exchange, byte[] data, boolean last) {
        if (finished) {
            return;
        }
        if (refusal == null) {
            keep(exchange, data);
        } else {
            dropped += data.length;
        }
        if (refusal != null && (last || dropped >= DRAIN_BYTES)) {
            finished = true;
            exchange.getRequestReceiver().pause();
            lingered(exchange);
        } else if (refusal == null && last) {
            finished = true;
            if (bodyWatch != null) {
                bodyWatch.remove();
            }
            target.received(exchange, new Body(chunks, size, budget));
        }
    }

    private void keep(HttpServerExchange exchange, byte[] data) {
        if (data.length == 0) {
            return;
        }
        if (size + data.length > limit) {
            refuse(exchange, Refusal.TOO_LARGE);
        } else if (!budget.tryReserve(data.length)) {
            refuse(exchange, Refusal.BUSY);
        } else {
            chunks.add(data);
            size += data.length;
        }
    }

    private void refuse(HttpServerExchange exchange, Refusal why) {
        refusal = why;
        if (bodyWatch != null) {
            // From now on only the linger deadline bounds the exchange.
            bodyWatch.remove();
        }
        long read = size;
        budget.release(size);
        size = 0;
        chunks.clear();
        exchange.setPersistent(false);
        lingerDeadline = exchange.getIoThread()
                .executeAfter(
                        () -> IoUtils.safeClose(exchange.getConnection()), LINGER.toMillis(), TimeUnit.MILLISECONDS);
        target.refused(exchange, why, read, new IoCallback() {
            @Override
            public void onComplete(HttpServerExchange ex, Sender sender) {
                // Flush and terminate the answer without ending the exchange: the body may still be draining.
                sender.close(new IoCallback() {
                    @Override
                    public void onComplete(HttpServerExchange e, Sender s) {
                        lingered(e);
                    }

                    @Override
                    public void onException(HttpServerExchange e, Sender s, IOException failure) {
                        IoUtils.safeClose(e.getConnection());
                    }
                });
            }

            @Override
            public void onException(HttpServerExchange ex, Sender sender, IOException failure) {
                IoUtils.safeClose(ex.getConnection());
            }
        });
    }

    /** One of the two things a refused exchange waits for happened; after both it ends and its connection closes. */
    private void lingered(HttpServerExchange exchange) {
        if (LINGERING.incrementAndGet(this) == 2) {
            lingerDeadline.remove();
            exchange.endExchange();
        }
    }

    @Override
    public void error(HttpServerExchange exchange, IOException e) {
        if (finished) {
            return;
        }
        finished = true;
        if (refusal != null && e instanceof Receiver.RequestToLargeException) {
            // A declared length past 2 GiB, already refused from the headers: Undertow will not drain it.
            lingered(exchange);
            return;
        }
        budget.release(size);
        chunks.clear();
        // The client went away or broke the framing mid-body: nobody is left to answer, or to drain for.
        IoUtils.safeClose(exchange.getConnection());
    }

    /** A complete body, holding its share of the budget until {@link #release()}. */
    static final class Body {
        private final List<byte[]> chunks;
        private final long size;
        private final ByteBudget budget;
        private final AtomicBoolean released = new AtomicBoolean();

        private Body(List<byte[]> chunks, long size, ByteBudget budget) {
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
