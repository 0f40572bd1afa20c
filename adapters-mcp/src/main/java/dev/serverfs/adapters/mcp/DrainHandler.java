package dev.serverfs.adapters.mcp;

import io.undertow.server.ExchangeCompletionListener;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * In front of the root handler: counts the exchanges in flight, from their request head to their end, so that {@link
 * McpServer#close} can let them finish before it stops the I/O threads that end them. From {@link #close} on, a
 * request that still arrives on an open connection is refused: 503 with {@code Retry-After}, and the connection closed.
 */
final class DrainHandler implements HttpHandler {

    private final HttpHandler next;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Object idle = new Object();
    private volatile boolean closing;
    private final ExchangeCompletionListener ended = (exchange, nextListener) -> {
        try {
            nextListener.proceed();
        } finally {
            ended();
        }
    };

    DrainHandler(HttpHandler next) {
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        // Counted before the check, so that close() either sees this exchange or this exchange sees close().
        inFlight.incrementAndGet();
        if (closing) {
            ended();
            exchange.setPersistent(false);
            exchange.setStatusCode(503);
            exchange.getResponseHeaders().put(Headers.RETRY_AFTER, McpHttpHandler.RETRY_AFTER_SECONDS);
            exchange.endExchange();
            return;
        }
        exchange.addExchangeCompleteListener(ended);
        next.handleRequest(exchange);
    }

    /**
     * Refuses every request from now on and waits up to {@code grace} for the exchanges in flight to end; returns how
     * many had not.
     */
    int close(Duration grace) throws InterruptedException {
        closing = true;
        long deadline = System.nanoTime() + grace.toNanos();
        synchronized (idle) {
            int left;
            while ((left = inFlight.get()) > 0) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return left;
                }
                TimeUnit.NANOSECONDS.timedWait(idle, remaining);
            }
            return 0;
        }
    }

    private void ended() {
        if (inFlight.decrementAndGet() == 0 && closing) {
            synchronized (idle) {
                idle.notifyAll();
            }
        }
    }
}
