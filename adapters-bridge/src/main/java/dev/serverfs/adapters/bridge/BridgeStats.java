package dev.serverfs.adapters.bridge;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * What the Bridge's listener saw since start, for the composition root to expose (this module knows no metrics
 * library): request lines dispatched, connections turned away or cut by reason, and the connections open now. Counts
 * only: never a peer's identity or anything it sent.
 */
public final class BridgeStats {

    /** Why the listener turned a connection away or cut it. */
    public enum Refusal {
        /** A peer whose {@code SO_PEERCRED} uid or gid is not the allowed one. */
        PEER_NOT_AUTHORIZED("peer_not_authorized"),
        /** A request line over 1 MiB; the connection is closed after the answer. */
        REQUEST_TOO_LARGE("request_too_large"),
        /** An idle connection closed to make room for a new one over the connection cap. */
        IDLE_CLOSED("idle_closed");

        private final String label;

        Refusal(String label) {
            this.label = label;
        }

        /** The metric label. */
        public String label() {
            return label;
        }
    }

    private final Map<Refusal, LongAdder> refusals = new EnumMap<>(Refusal.class);
    private final LongAdder requests = new LongAdder();
    private final IntSupplier open;

    BridgeStats(IntSupplier open) {
        this.open = open;
        for (Refusal r : Refusal.values()) {
            refusals.put(r, new LongAdder());
        }
    }

    void refused(Refusal why) {
        refusals.get(why).increment();
    }

    void answered() {
        requests.increment();
    }

    /** Connections turned away or cut for {@code why} since start. */
    public long refusals(Refusal why) {
        return refusals.get(why).sum();
    }

    /** Request lines dispatched since start (a malformed line's error answer included), counted before the answer. */
    public long requests() {
        return requests.sum();
    }

    /** Allowed connections open now. */
    public int openConnections() {
        return open.getAsInt();
    }
}
