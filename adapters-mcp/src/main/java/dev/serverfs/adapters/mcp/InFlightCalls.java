package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A session's requests that a {@code notifications/cancelled} may stop (MCP basic/utilities/cancellation: the receiver
 * SHOULD stop processing and free its resources). Only work that stops cleanly when its thread is interrupted is
 * registered: read-only file tools, whose search waits for its slot or whose long read checks the interrupt
 * ({@link CancellableCall}: no interrupt lands after the call has ended). Ids are keyed by
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
    final class Call extends CancellableCall {
        private final String key;

        private Call(String key, Thread thread) {
            super(thread);
            this.key = key;
        }

        @Override
        void unregister() {
            calls.remove(key, this);
        }
    }
}
