package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A session's requests that a {@code notifications/cancelled} may stop (MCP basic/utilities/cancellation: the receiver
 * SHOULD stop processing and free its resources). Only work that stops cleanly when its thread is interrupted is
 * registered: read-only file tools, whose search waits for its slot or whose long read checks the interrupt. A
 * cancellation interrupts the request's thread under the call's lock, so no interrupt can land after the call has
 * {@linkplain Call#close ended}; an end that finds its call cancelled clears the flag it may have left. Ids are keyed by
 * their JSON text (the string {@code "1"} and the number {@code 1} are different requests); a second request with an
 * id already in flight is not registered, so a cancellation never reaches the wrong one.
 */
final class InFlightCalls {

    private final ConcurrentMap<String, Call> calls = new ConcurrentHashMap<>();

    /**
     * Registers the current thread's request {@code id} (unless that id is already in flight); the caller must {@link
     * Call#close close} it.
     */
    Call begin(JsonNode id) {
        Call call = new Call(id.toString(), Thread.currentThread());
        calls.putIfAbsent(call.key, call);
        return call;
    }

    /** Stops the request {@code requestId} if it is still in flight; unknown and finished ones are ignored. */
    void cancel(JsonNode requestId) {
        if (requestId == null || !(requestId.isTextual() || requestId.isIntegralNumber())) {
            return;
        }
        Call call = calls.get(requestId.toString());
        if (call != null) {
            call.cancel();
        }
    }

    /** How many requests are registered (tests). */
    int size() {
        return calls.size();
    }

    /** One request, registered unless its id was already in flight. */
    final class Call implements AutoCloseable {
        private final String key;
        private final Thread thread;
        private boolean cancelled;
        private boolean ended;

        private Call(String key, Thread thread) {
            this.key = key;
            this.thread = thread;
        }

        private synchronized void cancel() {
            if (!ended && !cancelled) {
                cancelled = true;
                thread.interrupt();
            }
        }

        /** Unregisters the request; from now on no cancellation reaches its thread. */
        @Override
        public void close() {
            boolean wasCancelled;
            synchronized (this) {
                ended = true;
                wasCancelled = cancelled;
            }
            calls.remove(key, this);
            if (wasCancelled) {
                // The work may have finished before it saw the interrupt: what follows must not see it either.
                Thread.interrupted();
            }
        }
    }
}
