package dev.serverfs.provider;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A provider's version as its last successful probe found it, reused for {@code ttl} (submit probes the runtime every
 * time, and a probe starts a process); a failed probe is never reused, so an installed binary is seen at once.
 * Thread safe; two concurrent callers may both probe.
 */
public final class CachedVersion {
    private final Supplier<Optional<String>> probe;
    private final Duration ttl;
    private volatile Optional<String> version = Optional.empty();
    private volatile long probedAtNanos;

    public CachedVersion(Supplier<Optional<String>> probe, Duration ttl) {
        this.probe = Objects.requireNonNull(probe, "probe");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
    }

    /** The version, probing again when there is none or it is older than the ttl; empty when unavailable. */
    public Optional<String> get() {
        Optional<String> known = version;
        if (known.isEmpty() || System.nanoTime() - probedAtNanos > ttl.toNanos()) {
            known = probe.get();
            version = known;
            probedAtNanos = System.nanoTime();
        }
        return known;
    }
}
