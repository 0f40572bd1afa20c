package dev.serverfs.application.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.in.FetchRemoteFileUseCase.FetchRemoteFileCommand;
import dev.serverfs.application.port.out.HttpsFetcher;
import dev.serverfs.application.port.out.HttpsResponse;
import dev.serverfs.application.testing.MutableClock;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.ingress.HostPolicy;
import dev.serverfs.domain.ingress.IngressUrl;
import dev.serverfs.domain.ingress.SidecarPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class FetchRemoteFileServiceTest {

    /**
     * Scripted fetcher: URL string to response; records what was requested, with which limit and time left, and
     * moves the clock by {@code hopTakes} per request.
     */
    private static final class FakeHttpsFetcher implements HttpsFetcher {
        final Map<String, HttpsResponse> script = new HashMap<>();
        final List<String> requested = new ArrayList<>();
        final List<Long> limits = new ArrayList<>();
        final List<Duration> timesLeft = new ArrayList<>();
        final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        Duration hopTakes = Duration.ZERO;

        @Override
        public HttpsResponse get(IngressUrl url, long limit, Duration timeLeft) {
            requested.add(url.toUriString());
            limits.add(limit);
            timesLeft.add(timeLeft);
            clock.advance(hopTakes);
            HttpsResponse response = script.get(url.toUriString());
            if (response == null) {
                throw new ServerFsException(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, "no such file");
            }
            return response;
        }
    }

    private final FakeHttpsFetcher fetcher = new FakeHttpsFetcher();
    private final FetchRemoteFileService service = new FetchRemoteFileService(
            new SidecarPolicy(HostPolicy.fromConfiguration("files.example.com,cdn.example.com", true), 100, 3),
            fetcher,
            Duration.ofSeconds(10),
            fetcher.clock,
            16);

    private ErrorCode failure(String url, long max) {
        return assertThrows(ServerFsException.class, () -> service.fetch(new FetchRemoteFileCommand(url, max)))
                .code();
    }

    @Test
    void a_direct_200_returns_the_body_fetched_with_the_effective_limit() {
        fetcher.script.put("https://files.example.com/a", new HttpsResponse.Body(new byte[] {1, 2, 3}));
        assertArrayEquals(
                new byte[] {1, 2, 3}, service.fetch(new FetchRemoteFileCommand("https://FILES.example.com./a", 50)));
        assertEquals(List.of(50L), fetcher.limits);
        service.fetch(new FetchRemoteFileCommand("https://files.example.com/a", 5_000));
        assertEquals(100L, fetcher.limits.get(1), "the sidecar ceiling caps a larger request");
    }

    @Test
    void redirects_are_resolved_revalidated_and_followed_up_to_the_cap() {
        fetcher.script.put("https://files.example.com/1", new HttpsResponse.Redirect("/2"));
        fetcher.script.put("https://files.example.com/2", new HttpsResponse.Redirect("https://cdn.example.com/3"));
        fetcher.script.put(
                "https://cdn.example.com/3",
                new HttpsResponse.Redirect("https://oaisdmntprwestus.blob.core.windows.net/4?sig=x"));
        fetcher.script.put(
                "https://oaisdmntprwestus.blob.core.windows.net/4?sig=x", new HttpsResponse.Body(new byte[] {9}));
        assertArrayEquals(new byte[] {9}, service.fetch(new FetchRemoteFileCommand("https://files.example.com/1", 10)));
        assertEquals(4, fetcher.requested.size());
    }

    @Test
    void a_fourth_redirect_is_too_many() {
        for (int i = 1; i <= 4; i++) {
            fetcher.script.put("https://files.example.com/" + i, new HttpsResponse.Redirect("/" + (i + 1)));
        }
        fetcher.script.put("https://files.example.com/5", new HttpsResponse.Body(new byte[0]));
        assertEquals(ErrorCode.FILE_INGRESS_TOO_MANY_REDIRECTS, failure("https://files.example.com/1", 10));
        assertEquals(4, fetcher.requested.size(), "stops at the redirect that exceeds the cap");
    }

    @Test
    void all_hops_share_one_deadline_and_no_hop_starts_after_it() {
        for (int i = 1; i <= 3; i++) {
            fetcher.script.put("https://files.example.com/" + i, new HttpsResponse.Redirect("/" + (i + 1)));
        }
        fetcher.script.put("https://files.example.com/4", new HttpsResponse.Body(new byte[] {1}));
        fetcher.hopTakes = Duration.ofSeconds(4);
        assertEquals(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, failure("https://files.example.com/1", 10));
        assertEquals(List.of(Duration.ofSeconds(10), Duration.ofSeconds(6), Duration.ofSeconds(2)), fetcher.timesLeft);
        assertEquals(3, fetcher.requested.size(), "the fourth hop would start after the deadline");
    }

    @Test
    void a_clock_set_back_never_extends_a_hop_beyond_the_whole_deadline() {
        fetcher.script.put("https://files.example.com/1", new HttpsResponse.Redirect("/2"));
        fetcher.script.put("https://files.example.com/2", new HttpsResponse.Body(new byte[] {1}));
        fetcher.hopTakes = Duration.ofHours(-1);
        assertArrayEquals(new byte[] {1}, service.fetch(new FetchRemoteFileCommand("https://files.example.com/1", 10)));
        assertEquals(List.of(Duration.ofSeconds(10), Duration.ofSeconds(10)), fetcher.timesLeft);
    }

    @Test
    void a_redirect_to_a_host_outside_the_policy_is_refused_before_any_request() {
        fetcher.script.put("https://files.example.com/1", new HttpsResponse.Redirect("https://evil.example.com/x"));
        assertEquals(ErrorCode.FILE_INGRESS_HOST_NOT_ALLOWED, failure("https://files.example.com/1", 10));
        assertEquals(List.of("https://files.example.com/1"), fetcher.requested);
    }

    @Test
    void a_redirect_to_a_bad_url_is_url_not_allowed() {
        fetcher.script.put("https://files.example.com/1", new HttpsResponse.Redirect("http://files.example.com/x"));
        assertEquals(ErrorCode.FILE_INGRESS_URL_NOT_ALLOWED, failure("https://files.example.com/1", 10));
        fetcher.script.put(
                "https://files.example.com/2", new HttpsResponse.Redirect("https://files.example.com:8443/"));
        assertEquals(ErrorCode.FILE_INGRESS_URL_NOT_ALLOWED, failure("https://files.example.com/2", 10));
    }

    @Test
    void the_initial_url_is_validated_before_any_request() {
        assertEquals(ErrorCode.FILE_INGRESS_URL_NOT_ALLOWED, failure("http://files.example.com/a", 10));
        assertEquals(ErrorCode.FILE_INGRESS_HOST_NOT_ALLOWED, failure("https://127.0.0.1/a", 10));
        assertEquals(ErrorCode.FILE_INGRESS_HOST_NOT_ALLOWED, failure("https://evil.blob.core.windows.net/a", 10));
        assertEquals(List.of(), fetcher.requested);
    }

    @Test
    void a_body_longer_than_the_limit_is_refused_even_if_the_fetcher_returned_it() {
        fetcher.script.put("https://files.example.com/a", new HttpsResponse.Body(new byte[11]));
        assertEquals(ErrorCode.BINARY_PAYLOAD_TOO_LARGE, failure("https://files.example.com/a", 10));
    }

    @Test
    void fetcher_failures_pass_through_unchanged() {
        assertEquals(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, failure("https://files.example.com/missing", 10));
    }

    @Test
    void a_non_positive_max_bytes_is_a_bad_request_and_the_command_hides_the_url() {
        ServerFsException e = assertThrows(
                ServerFsException.class, () -> new FetchRemoteFileCommand("https://files.example.com/a", 0));
        assertEquals(ErrorCode.FILE_INGRESS_BAD_REQUEST, e.code());
        assertFalse(new FetchRemoteFileCommand("https://files.example.com/a", 1)
                .toString()
                .contains("files"));
    }

    /**
     * With every slot taken, a fetch waits for its turn no longer than its deadline, and then fails as a fetch that
     * ran out of time, without a request; a slot given back is taken by the next fetch.
     */
    @Test
    void a_fetch_waits_for_a_slot_no_longer_than_its_deadline() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> requested = new java.util.concurrent.CopyOnWriteArrayList<>();
        HttpsFetcher blocking = (url, limit, timeLeft) -> {
            requested.add(url.toUriString());
            if (url.toUriString().endsWith("/slow")) {
                holding.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return new HttpsResponse.Body(new byte[] {7});
        };
        FetchRemoteFileService oneAtATime = new FetchRemoteFileService(
                new SidecarPolicy(HostPolicy.fromConfiguration("files.example.com", false), 100, 3),
                blocking,
                Duration.ofMillis(300),
                java.time.Clock.systemUTC(),
                1);
        Thread first = Thread.ofVirtual()
                .start(() -> oneAtATime.fetch(new FetchRemoteFileCommand("https://files.example.com/slow", 10)));
        holding.await();
        long before = System.nanoTime();
        ServerFsException e = assertThrows(
                ServerFsException.class,
                () -> oneAtATime.fetch(new FetchRemoteFileCommand("https://files.example.com/queued", 10)));
        assertEquals(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, e.code());
        assertTrue(System.nanoTime() - before < Duration.ofSeconds(5).toNanos(), "bounded by the deadline");
        assertEquals(List.of("https://files.example.com/slow"), requested, "no request for the one that timed out");
        release.countDown();
        first.join();
        assertArrayEquals(
                new byte[] {7}, oneAtATime.fetch(new FetchRemoteFileCommand("https://files.example.com/next", 10)));
    }
}
