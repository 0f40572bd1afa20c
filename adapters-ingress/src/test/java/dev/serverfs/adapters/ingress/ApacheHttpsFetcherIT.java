package dev.serverfs.adapters.ingress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.out.HttpsResponse;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.ingress.IngressUrl;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ApacheHttpsFetcherIT {

    /** Time given to each exchange in the tests that are not about the deadline. */
    private static final Duration AMPLE = Duration.ofSeconds(60);

    private final LocalHttpsServer upstream = new LocalHttpsServer(TestTls.TRUSTED);
    private final LocalHttpsServer impostor = new LocalHttpsServer(TestTls.untrusted());
    private final ApacheHttpsFetcher fetcher =
            TestResolution.fetcher(Duration.ofSeconds(5), upstream.port(), impostor.port());

    @AfterEach
    void stop() {
        fetcher.close();
        upstream.close();
        impostor.close();
    }

    private ErrorCode failure(ApacheHttpsFetcher f, String url, long limit) {
        return assertThrows(ServerFsException.class, () -> f.get(IngressUrl.parse(url), limit, AMPLE))
                .code();
    }

    @Test
    void a_200_body_comes_back_byte_for_byte_with_the_reference_request_headers() {
        byte[] body = new byte[300_000];
        new Random(7).nextBytes(body);
        upstream.bytes("/file.bin", body);
        HttpsResponse response = fetcher.get(IngressUrl.parse("https://files.test/file.bin?sig=a%2Fb"), 300_000, AMPLE);
        assertArrayEquals(
                body, assertInstanceOf(HttpsResponse.Body.class, response).bytes());
        assertEquals(List.of("/file.bin?sig=a%2Fb"), upstream.paths);
        Map<String, List<String>> headers = upstream.requests.getFirst();
        assertEquals(List.of("ServerFS-File-Ingress/0.5"), headers.get("User-agent"));
        assertEquals(List.of("*/*"), headers.get("Accept"));
        assertEquals(List.of("close"), headers.get("Connection"));
        assertEquals(List.of("files.test"), headers.get("Host"));
        assertTrue(!headers.containsKey("Accept-encoding"), "no transparent decompression is negotiated");
    }

    @Test
    void an_empty_200_is_an_empty_body() {
        upstream.bytes("/empty", new byte[0]);
        HttpsResponse response = fetcher.get(IngressUrl.parse("https://files.test/empty"), 10, AMPLE);
        assertEquals(0, assertInstanceOf(HttpsResponse.Body.class, response).bytes().length);
    }

    @Test
    void redirect_statuses_return_the_raw_location_without_following_it() {
        for (int status : new int[] {301, 302, 303, 307, 308}) {
            upstream.redirect("/r" + status, status, "/next?x=" + status);
            HttpsResponse response = fetcher.get(IngressUrl.parse("https://files.test/r" + status), 10, AMPLE);
            assertEquals(new HttpsResponse.Redirect("/next?x=" + status), response);
        }
        assertEquals(5, upstream.paths.size(), "nothing was followed");
    }

    @Test
    void a_redirect_without_location_and_other_statuses_are_upstream_failures() {
        upstream.redirect("/no-location", 302, null);
        upstream.redirect("/not-modified", 304, "/x");
        upstream.redirect("/accepted", 202, null);
        assertEquals(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, failure(fetcher, "https://files.test/no-location", 10));
        assertEquals(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, failure(fetcher, "https://files.test/not-modified", 10));
        assertEquals(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, failure(fetcher, "https://files.test/accepted", 10));
        assertEquals(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, failure(fetcher, "https://files.test/missing", 10));
    }

    @Test
    void a_declared_content_length_above_the_limit_is_rejected_early() {
        upstream.bytes("/big", new byte[1001]);
        upstream.bytes("/exact", new byte[1000]);
        assertEquals(ErrorCode.BINARY_PAYLOAD_TOO_LARGE, failure(fetcher, "https://files.test/big", 1000));
        HttpsResponse exact = fetcher.get(IngressUrl.parse("https://files.test/exact"), 1000, AMPLE);
        assertEquals(1000, assertInstanceOf(HttpsResponse.Body.class, exact).bytes().length);
    }

    @Test
    void a_body_without_content_length_is_cut_at_limit_plus_one() {
        upstream.chunked("/endless", 512L * 1024 * 1024);
        upstream.chunked("/exact", 70_000);
        upstream.chunked("/over", 70_001);
        assertTimeoutPreemptively(
                Duration.ofSeconds(30),
                () -> assertEquals(
                        ErrorCode.BINARY_PAYLOAD_TOO_LARGE, failure(fetcher, "https://files.test/endless", 100_000)));
        assertTrue(upstream.bytesWritten.get() < 64L * 1024 * 1024, "the fetcher stopped reading at limit + 1");
        HttpsResponse exact = fetcher.get(IngressUrl.parse("https://files.test/exact"), 70_000, AMPLE);
        assertEquals(70_000, assertInstanceOf(HttpsResponse.Body.class, exact).bytes().length);
        assertEquals(ErrorCode.BINARY_PAYLOAD_TOO_LARGE, failure(fetcher, "https://files.test/over", 70_000));
    }

    @Test
    void a_stalled_upstream_times_out_as_an_upstream_failure() {
        upstream.stall("/slow");
        try (ApacheHttpsFetcher quick =
                TestResolution.fetcher(Duration.ofMillis(300), upstream.port(), impostor.port())) {
            long started = System.nanoTime();
            assertEquals(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, failure(quick, "https://files.test/slow", 100));
            assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() < 10, "bounded by the timeout");
        }
    }

    @Test
    void a_trickling_body_is_cut_when_the_exchange_runs_out_of_time() {
        // One byte every 100 ms never trips the 5 s read timeout; only the 1 s the exchange was given ends it.
        upstream.trickle("/drip", Duration.ofMillis(100));
        long started = System.nanoTime();
        ServerFsException e = assertTimeoutPreemptively(
                Duration.ofSeconds(20),
                () -> assertThrows(
                        ServerFsException.class,
                        () -> fetcher.get(
                                IngressUrl.parse("https://files.test/drip"), 2_000_000, Duration.ofSeconds(1))));
        assertEquals(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, e.code());
        long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
        assertTrue(millis >= 900 && millis < 5_000, "ended after " + millis + " ms, the deadline is 1 s");
        assertTrue(upstream.bytesWritten.get() > 0, "the upstream did trickle");
    }

    @Test
    void a_silent_peer_during_the_tls_handshake_is_cut_at_the_deadline_too() throws Exception {
        // Accepts the connection and never answers the ClientHello: within the 60 s handshake timeout, not the 1 s.
        try (ServerSocket silent = new ServerSocket(0, 50, TestResolution.LOOPBACK);
                ApacheHttpsFetcher patient =
                        TestResolution.fetcher(Duration.ofSeconds(60), silent.getLocalPort(), impostor.port())) {
            List<Socket> accepted = new CopyOnWriteArrayList<>();
            Thread acceptor = Thread.startVirtualThread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept());
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            try {
                long started = System.nanoTime();
                ServerFsException e = assertTimeoutPreemptively(
                        Duration.ofSeconds(20),
                        () -> assertThrows(
                                ServerFsException.class,
                                () -> patient.get(
                                        IngressUrl.parse("https://files.test/x"), 10, Duration.ofSeconds(1))));
                assertEquals(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, e.code());
                long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
                assertTrue(millis < 5_000, "ended after " + millis + " ms, the deadline is 1 s");
            } finally {
                silent.close();
                acceptor.join();
                for (Socket socket : accepted) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void a_lookup_that_does_not_answer_in_time_fails_the_fetch_at_its_deadline() throws Exception {
        // The system resolver's own timeouts (resolv.conf: 5 s per attempt and server) can outlast the fetch's time.
        CountDownLatch answer = new CountDownLatch(1);
        HostLookup hanging = (host, port) -> {
            try {
                answer.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new UnknownHostException("released by the test");
        };
        try (ApacheHttpsFetcher f =
                new ApacheHttpsFetcher(AMPLE, TestTls.TRUSTED.clientContext(), hanging, TestResolution.ALLOWED)) {
            ServerFsException e = assertTimeoutPreemptively(
                    Duration.ofSeconds(20),
                    () -> assertThrows(
                            ServerFsException.class,
                            () -> f.get(IngressUrl.parse("https://files.test/x"), 10, Duration.ofMillis(300))));
            assertEquals(ErrorCode.FILE_INGRESS_DNS_FAILED, e.code());
            assertEquals(1, answer.getCount(), "the fetch ended while the lookup was still under way");
        } finally {
            answer.countDown();
        }
    }

    @Test
    void a_sub_millisecond_timeout_still_bounds_reads() {
        // SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS=0.0001 is accepted; it must not become "no timeout" (0 ms).
        upstream.stall("/slow");
        try (ApacheHttpsFetcher tiny =
                TestResolution.fetcher(Duration.ofNanos(100_000), upstream.port(), impostor.port())) {
            assertTimeoutPreemptively(
                    Duration.ofSeconds(20),
                    () -> assertEquals(
                            ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, failure(tiny, "https://files.test/slow", 100)));
        }
    }

    @Test
    void a_certificate_for_another_host_name_is_refused() {
        upstream.bytes("/file", new byte[] {1});
        assertEquals(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, failure(fetcher, "https://wrong.test/file", 10));
        assertEquals(List.of(), upstream.paths, "no request was sent over the unverified connection");
    }

    @Test
    void an_untrusted_certificate_is_refused() {
        impostor.bytes("/file", new byte[] {1});
        assertEquals(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, failure(fetcher, "https://untrusted.test/file", 10));
        assertEquals(List.of(), impostor.paths);
    }

    @Test
    void a_private_address_in_the_answer_is_refused_before_connecting() {
        assertEquals(ErrorCode.FILE_INGRESS_ADDRESS_NOT_ALLOWED, failure(fetcher, "https://private.test/x", 10));
        upstream.bytes("/x", new byte[] {1});
        assertEquals(ErrorCode.FILE_INGRESS_ADDRESS_NOT_ALLOWED, failure(fetcher, "https://mixed.test/x", 10));
        assertEquals(List.of(), upstream.paths, "the good address of a mixed answer is not used either");
    }

    @Test
    void an_unknown_name_is_a_dns_failure() {
        assertEquals(ErrorCode.FILE_INGRESS_DNS_FAILED, failure(fetcher, "https://nowhere.test/x", 10));
    }

    @Test
    void the_production_fetcher_refuses_loopback_names_and_literals() {
        try (ApacheHttpsFetcher production = ApacheHttpsFetcher.create(Duration.ofSeconds(2))) {
            assertEquals(ErrorCode.FILE_INGRESS_ADDRESS_NOT_ALLOWED, failure(production, "https://localhost/x", 10));
            assertEquals(ErrorCode.FILE_INGRESS_ADDRESS_NOT_ALLOWED, failure(production, "https://127.0.0.1/x", 10));
            assertEquals(ErrorCode.FILE_INGRESS_ADDRESS_NOT_ALLOWED, failure(production, "https://2130706433/x", 10));
            assertEquals(ErrorCode.FILE_INGRESS_ADDRESS_NOT_ALLOWED, failure(production, "https://[::1]/x", 10));
            assertEquals(
                    ErrorCode.FILE_INGRESS_ADDRESS_NOT_ALLOWED,
                    failure(production, "https://[::ffff:127.0.0.1]/x", 10));
            assertEquals(
                    ErrorCode.FILE_INGRESS_ADDRESS_NOT_ALLOWED, failure(production, "https://169.254.169.254/x", 10));
        }
    }
}
