package dev.serverfs.application.service;

import dev.serverfs.application.port.in.FetchRemoteFileUseCase;
import dev.serverfs.application.port.out.HttpsFetcher;
import dev.serverfs.application.port.out.HttpsResponse;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.ingress.IngressUrl;
import dev.serverfs.domain.ingress.SidecarPolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Validates the URL and host, then fetches hop by hop, re-validating every redirect target and capping their
 * number (v0.5 plan §7 rules 1–4, 7–8). The fetch as a whole, every hop included, ends within {@code deadline} of
 * its start ({@code FILE_INGRESS_UPSTREAM_FAILED}, as a timed-out read), so an upstream that answers slowly but
 * never too slowly for one read cannot hold a fetch open indefinitely. At most {@code maxConcurrent} fetches run at
 * once (each may hold up to the byte ceiling in memory); the time a fetch waits for its turn counts towards its
 * deadline, so one that cannot start in time fails the same way instead of running after its caller gave up. Address
 * checks, TLS and streaming limits are the {@link HttpsFetcher}'s.
 */
public final class FetchRemoteFileService implements FetchRemoteFileUseCase {

    private final SidecarPolicy policy;
    private final HttpsFetcher fetcher;
    private final Duration deadline;
    private final Clock clock;
    private final Semaphore slots;

    /** {@code deadline} (positive) bounds one whole fetch, measured on {@code clock}; at most {@code maxConcurrent} run. */
    public FetchRemoteFileService(
            SidecarPolicy policy, HttpsFetcher fetcher, Duration deadline, Clock clock, int maxConcurrent) {
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("maxConcurrent must be positive");
        }
        this.slots = new Semaphore(maxConcurrent);
        this.policy = Objects.requireNonNull(policy, "policy");
        this.fetcher = Objects.requireNonNull(fetcher, "fetcher");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (!deadline.isPositive()) {
            throw new IllegalArgumentException("deadline must be positive");
        }
    }

    @Override
    public byte[] fetch(FetchRemoteFileCommand command) {
        long limit = policy.effectiveLimit(command.maxBytes());
        IngressUrl url = IngressUrl.parse(command.downloadUrl());
        policy.hosts().requireAllowed(url);
        Instant started = clock.instant();
        try {
            if (!slots.tryAcquire(timeLeft(started).toNanos(), TimeUnit.NANOSECONDS)) {
                throw new ServerFsException(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, "the fetch ran out of time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServerFsException(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, "the fetch was interrupted");
        }
        try {
            return fetch(url, limit, started);
        } finally {
            slots.release();
        }
    }

    private byte[] fetch(IngressUrl first, long limit, Instant started) {
        IngressUrl url = first;
        int redirects = 0;
        while (true) {
            switch (fetcher.get(url, limit, timeLeft(started))) {
                case HttpsResponse.Body body -> {
                    if (body.bytes().length > limit) {
                        throw new ServerFsException(
                                ErrorCode.BINARY_PAYLOAD_TOO_LARGE, "file exceeds the transfer limit");
                    }
                    return body.bytes();
                }
                case HttpsResponse.Redirect redirect -> {
                    redirects++;
                    if (redirects > policy.maxRedirects()) {
                        throw new ServerFsException(ErrorCode.FILE_INGRESS_TOO_MANY_REDIRECTS, "too many redirects");
                    }
                    url = url.resolve(redirect.location());
                    policy.hosts().requireAllowed(url);
                }
            }
        }
    }

    /** What is left of the deadline; never more than all of it, even if the clock was set back meanwhile. */
    private Duration timeLeft(Instant started) {
        Duration elapsed = Duration.between(started, clock.instant());
        Duration left = elapsed.isNegative() ? deadline : deadline.minus(elapsed);
        if (!left.isPositive()) {
            throw new ServerFsException(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, "the fetch ran out of time");
        }
        return left;
    }
}
