package dev.serverfs.adapters.mcp;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * What the transport refused and served, counted since start for the operator's metrics (the composition root reads
 * them; this module knows no metrics library): refusals by reason, requests by protocol era, and the sessions open
 * now. Counting is a striped add on paths that already answer, never a lock.
 */
public final class TransportStats {

    /** Why the transport turned a request or a connection away, each answered as the issue-24 hardening says. */
    public enum Refusal {
        /** 413: a body over {@code SERVERFS_MAX_REQUEST_BODY_BYTES}, from its headers or as it arrived. */
        BODY_TOO_LARGE,
        /** 503: the request bodies in flight would pass their shared byte budget. */
        BODY_BUDGET,
        /** Closed: a body that missed its deadline or minimum rate. */
        BODY_TIMEOUT,
        /** 503 and closed before reading: over {@code SERVERFS_MAX_CONNECTIONS}. */
        CONNECTIONS,
        /** 503: a large answer that would pass the answer budget while waiting for its client. */
        ANSWER_BUDGET,
        /** 503: an {@code initialize} while the session table is full of sessions in use. */
        SESSIONS_FULL;

        /** The metric label: the constant's name in lower case. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The protocol era a request was served in. */
    public enum Era {
        /** 2025-11-25 and older: {@code initialize}, then requests with {@code Mcp-Session-Id}. */
        SESSION,
        /** 2026-07-28: every request stands alone. */
        STATELESS;

        /** The metric label: the constant's name in lower case. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Map<Refusal, LongAdder> refused = new EnumMap<>(Refusal.class);
    private final Map<Era, LongAdder> requests = new EnumMap<>(Era.class);
    private final IntSupplier openSessions;

    TransportStats(IntSupplier openSessions) {
        this.openSessions = openSessions;
        for (Refusal r : Refusal.values()) {
            refused.put(r, new LongAdder());
        }
        for (Era e : Era.values()) {
            requests.put(e, new LongAdder());
        }
    }

    void refused(Refusal why) {
        refused.get(why).increment();
    }

    void request(Era era) {
        requests.get(era).increment();
    }

    /** Refusals for {@code why} since start. */
    public long refusals(Refusal why) {
        return refused.get(why).sum();
    }

    /** JSON-RPC requests (not notifications) served in {@code era} since start, refused ones included. */
    public long requests(Era era) {
        return requests.get(era).sum();
    }

    /** Sessions of the 2025-11-25 era open now. */
    public int openSessions() {
        return openSessions.getAsInt();
    }
}
