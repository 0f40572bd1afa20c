package dev.serverfs.provider;

import java.time.Duration;
import java.util.Objects;

/**
 * The waits of {@link ProviderChild#stop}: after stdin is closed the child gets {@code grace} to exit on its own,
 * then {@code SIGTERM} and {@code termWait}, then {@code SIGKILL} and {@code killWait}. With {@code kill} false the
 * stop gives up after the grace (a test double for a kill that fails). {@link #BOUNDED} fits the 10 s
 * provider-cancel bound of v0.7.3 §6.
 */
public record StopPolicy(Duration grace, Duration termWait, Duration killWait, boolean kill) {

    /** 2 s + 3 s + 3 s: the whole stop stays within the 10 s provider-cancel bound (v0.7.3 §6). */
    public static final StopPolicy BOUNDED =
            new StopPolicy(Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(3), true);

    public StopPolicy {
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(termWait, "termWait");
        Objects.requireNonNull(killWait, "killWait");
        if (grace.isNegative() || termWait.isNegative() || killWait.isNegative()) {
            throw new IllegalArgumentException("stop waits must not be negative");
        }
    }

    /** The longest a stop with this policy can take. */
    public Duration bound() {
        return kill ? grace.plus(termWait).plus(killWait) : grace;
    }
}
