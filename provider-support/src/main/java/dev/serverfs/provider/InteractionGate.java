package dev.serverfs.provider;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A turn's interactions with a human, one at a time (the application keeps one pending request per task), each
 * answered on the caller's thread (a virtual thread per provider request, so the turn keeps reading), and the
 * provider's withdrawals: a request withdrawn before its turn came is never asked, one withdrawn while asked is
 * never answered. Thread safe.
 */
public final class InteractionGate {
    private final Semaphore one = new Semaphore(1, true);
    private final Set<String> withdrawn = ConcurrentHashMap.newKeySet();
    private volatile String asking;

    /**
     * Waits for its turn, then the reply {@code answer} gives; {@code refused} replies instead when the answer
     * failed (timed out, stale, the task ended, a malformed request) or the wait was interrupted. Empty when the
     * provider withdrew request {@code id}: nothing may be sent for it.
     */
    public Optional<String> decide(String id, Supplier<String> answer, Function<RuntimeException, String> refused) {
        String reply;
        boolean acquired = false;
        try {
            one.acquire();
            acquired = true;
            if (withdrawn.contains(id)) {
                return Optional.empty();
            }
            asking = id;
            reply = answer.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reply = refused.apply(new IllegalStateException("interrupted"));
        } catch (RuntimeException e) {
            reply = refused.apply(e);
        } finally {
            asking = null;
            if (acquired) {
                one.release();
            }
        }
        return withdrawn.contains(id) ? Optional.empty() : Optional.of(reply);
    }

    /** The provider withdrew request {@code id}; true when it is being asked right now (abandon it). */
    public boolean withdraw(String id) {
        withdrawn.add(id);
        return id.equals(asking);
    }
}
