package dev.serverfs.adapters.mcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.ChannelListener;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;
import org.xnio.channels.AcceptingChannel;

/**
 * Accepts connections for the HTTP listener while fewer than {@code max} are open; one over the cap is answered a
 * fixed 503 at once and closed, before any of its bytes are read (issue 24 item 5: 2,030 slow connections had taken
 * all 2,048 descriptors). A connection is counted from its accept until XNIO closes it, however it ends.
 */
final class ConnectionGate implements ChannelListener<AcceptingChannel<StreamConnection>> {

    private static final Logger log = LoggerFactory.getLogger(ConnectionGate.class);
    private static final byte[] REFUSAL = ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8"
                    + "\r\nRetry-After: " + McpHttpHandler.RETRY_AFTER_SECONDS
                    + "\r\nConnection: close\r\nContent-Length: 34\r\n\r\nServer busy: too many connections\n")
            .getBytes(StandardCharsets.US_ASCII);
    private static final long LOG_EVERY_NANOS = 1_000_000_000L;

    private final ChannelListener<StreamConnection> open;
    private final int max;
    private final AtomicInteger connections = new AtomicInteger();
    private final TransportStats stats;
    private final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);

    ConnectionGate(ChannelListener<StreamConnection> open, int max, TransportStats stats) {
        this.open = open;
        this.max = max;
        this.stats = stats;
    }

    @Override
    public void handleEvent(AcceptingChannel<StreamConnection> channel) {
        StreamConnection connection;
        try {
            connection = channel.accept();
        } catch (IOException e) {
            if (!channel.isOpen()) {
                // The server is closing: the other I/O thread saw the same readiness, or it came before the close.
                return;
            }
            // EMFILE and friends: the kernel keeps the connection queued; the next accept event retries.
            log.atWarn()
                    .setMessage("mcp_accept_failed")
                    .addKeyValue("exception", e.getClass().getName())
                    .log();
            return;
        }
        if (connection == null) {
            return;
        }
        if (connections.incrementAndGet() > max) {
            connections.decrementAndGet();
            refuse(connection);
            return;
        }
        AtomicBoolean counted = new AtomicBoolean(true);
        // XNIO merges close listeners (Undertow adds its own later) and runs this one at once if already closed.
        connection.setCloseListener(c -> {
            if (counted.getAndSet(false)) {
                connections.decrementAndGet();
            }
        });
        open.handleEvent(connection);
    }

    /** Connections open now (tests wait on it). */
    int open() {
        return connections.get();
    }

    private void refuse(StreamConnection connection) {
        try {
            // A fresh socket's send buffer always takes these few bytes; whatever it does not take is not retried.
            connection.getSinkChannel().write(ByteBuffer.wrap(REFUSAL));
        } catch (IOException e) {
            // The client is gone already.
        } finally {
            IoUtils.safeClose(connection);
        }
        stats.refused(TransportStats.Refusal.CONNECTIONS);
        long count = stats.refusals(TransportStats.Refusal.CONNECTIONS);
        long now = System.nanoTime();
        long last = lastLogged.get();
        if (now - last >= LOG_EVERY_NANOS && lastLogged.compareAndSet(last, now)) {
            log.atWarn()
                    .setMessage("mcp_connections_over_cap")
                    .addKeyValue("max_connections", max)
                    .addKeyValue("refused_total", count)
                    .log();
        }
    }
}
