package dev.serverfs.adapters.mcp;

import io.undertow.connector.PooledByteBuffer;
import io.undertow.server.AbstractServerConnection;
import io.undertow.server.HttpServerExchange;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Stops a 2026-07-28 (stateless) request whose client closed its connection: there the close is the cancellation
 * (2026-07-28 basic/transports §Cancellation: the server MUST treat it as cancellation of that request and SHOULD stop
 * work on it as soon as practical; no {@code notifications/cancelled} comes). Undertow does not read a connection
 * while its request runs, so nothing else would notice. Every {@link #PERIOD} one watchdog thread looks at the calls
 * registered here, and for each one already running at its previous look has the connection's I/O thread try a
 * non-blocking read of the socket: its end (or a reset) means the client left, and the call's thread is interrupted
 * under the call's lock, as {@link InFlightCalls} does for a session's {@code notifications/cancelled}. A call shorter
 * than a period is never probed: it costs a set insertion and a removal, no timer and no thread. Bytes a client sent
 * meanwhile (a pipelined request) are handed to the connection as the next request's start, as Undertow keeps them
 * itself, and that call is not probed again. While no call is registered the watchdog parks.
 */
final class Disconnects implements AutoCloseable {

    /** How often running calls are looked at; a client's close is noticed one to two periods after it. */
    static final Duration PERIOD = Duration.ofMillis(200);

    private final Set<Watch> calls = ConcurrentHashMap.newKeySet();
    private final LongAdder probes = new LongAdder();
    private final Thread watchdog;
    private volatile boolean idle;
    private volatile boolean closed;

    private Disconnects() {
        watchdog = Thread.ofVirtual().name("mcp-disconnects").unstarted(this::run);
    }

    /** A watchdog of its own, running until {@link #close}. */
    static Disconnects start() {
        Disconnects disconnects = new Disconnects();
        disconnects.watchdog.start();
        return disconnects;
    }

    /**
     * Registers the current thread's call, served on {@code exchange}, until the returned watch is {@linkplain
     * Watch#close closed}. A connection that cannot be probed (not plain HTTP/1.1) is not watched.
     */
    Watch watch(HttpServerExchange exchange) {
        AbstractServerConnection connection =
                exchange.getConnection() instanceof AbstractServerConnection c && c.getSslSessionInfo() == null
                        ? c
                        : null;
        Watch watch = new Watch(connection, Thread.currentThread());
        if (connection != null) {
            calls.add(watch);
            if (idle) {
                LockSupport.unpark(watchdog);
            }
        }
        return watch;
    }

    /** How many probes have run so far (tests wait on it). */
    long probes() {
        return probes.sum();
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(watchdog);
    }

    private void run() {
        while (!closed) {
            if (calls.isEmpty()) {
                idle = true;
                // A registration after this look sees idle and unparks us (or the look sees it).
                if (calls.isEmpty() && !closed) {
                    LockSupport.park(this);
                }
                idle = false;
            }
            // A whole period before any look, also after a wake-up: short calls one after another wake the watchdog
            // at most once a period, not once each.
            LockSupport.parkNanos(this, PERIOD.toNanos());
            for (Watch watch : calls) {
                watch.look();
            }
        }
    }

    /** One call on one connection. */
    final class Watch extends CancellableCall {
        private final AbstractServerConnection connection;
        /** Only the watchdog thread reads and writes it: the call was registered at an earlier look. */
        private boolean seen;

        private boolean probing = true;

        private Watch(AbstractServerConnection connection, Thread thread) {
            super(thread);
            this.connection = connection;
        }

        /** The watchdog's look: from the second one on, a probe on the connection's I/O thread. */
        private void look() {
            if (!seen) {
                seen = true;
                return;
            }
            try {
                connection.getIoThread().execute(this::probe);
            } catch (RejectedExecutionException e) {
                // The server is stopping: its connections are being closed anyway.
            }
        }

        /**
         * On the I/O thread, the only reader of the socket while a request runs: reads what the client sent since
         * its body. Under the call's lock, so no probe reads once the call has ended.
         */
        private synchronized void probe() {
            probes.increment();
            if (!live() || !probing) {
                return;
            }
            if (connection.getExtraBytes() != null) {
                // Bytes of a next request already wait: the socket's end would not tell that the client left.
                probing = false;
                return;
            }
            PooledByteBuffer pooled = connection.getByteBufferPool().allocate();
            boolean kept = false;
            try {
                int read;
                try {
                    read = connection.getOriginalSourceConduit().read(pooled.getBuffer());
                } catch (IOException e) {
                    // A reset: the client is gone as surely as with a close.
                    read = -1;
                }
                if (read < 0) {
                    cancel();
                } else if (read > 0) {
                    // The start of a pipelined request: Undertow reads it from here once this exchange ends.
                    pooled.getBuffer().flip();
                    connection.setExtraBytes(pooled);
                    kept = true;
                    probing = false;
                }
            } finally {
                if (!kept) {
                    pooled.close();
                }
            }
        }

        /** From the end on, no probe reads its connection (the probe runs under the same lock). */
        @Override
        void unregister() {
            calls.remove(this);
        }
    }
}
