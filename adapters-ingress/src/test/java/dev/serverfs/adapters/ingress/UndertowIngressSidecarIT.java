package dev.serverfs.adapters.ingress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.service.FetchRemoteFileService;
import dev.serverfs.domain.ingress.HostPolicy;
import dev.serverfs.domain.ingress.SidecarPolicy;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UndertowIngressSidecarIT {

    static final long SIDECAR_MAX = 1_000_000;

    private final LocalHttpsServer upstream = new LocalHttpsServer(TestTls.TRUSTED);
    private final ApacheHttpsFetcher fetcher =
            TestResolution.fetcher(Duration.ofSeconds(5), upstream.port(), upstream.port());
    private final UndertowIngressSidecar sidecar = UndertowIngressSidecar.start(
            "127.0.0.1",
            0,
            new FetchRemoteFileService(
                    new SidecarPolicy(HostPolicy.fromConfiguration(TestResolution.HOSTS, false), SIDECAR_MAX, 3),
                    fetcher,
                    Duration.ofSeconds(5),
                    Clock.systemUTC(),
                    UndertowIngressSidecar.MAX_CONCURRENT_FETCHES));
    private final InetSocketAddress address = sidecar.address();

    @AfterEach
    void stop() {
        sidecar.close();
        fetcher.close();
        upstream.close();
    }

    private RawHttp.Response fetch(String url, long max) {
        return RawHttp.postJson(address, "{\"download_url\":\"" + url + "\",\"max_bytes\":" + max + "}");
    }

    private static void assertCode(RawHttp.Response response, int status, String code) {
        assertEquals(status, response.status(), response.text());
        assertEquals("application/json", response.header("Content-Type"));
        assertEquals("{\"code\":\"" + code + "\"}", response.text());
    }

    @Test
    void a_port_in_use_fails_to_start() {
        assertThrows(
                RuntimeException.class,
                () -> UndertowIngressSidecar.start("127.0.0.1", address.getPort(), command -> new byte[0]));
        assertEquals(
                200, RawHttp.send(address, "GET /healthz HTTP/1.1", new byte[0]).status());
    }

    @Test
    void closing_refuses_new_requests_and_lets_a_fetch_in_flight_finish() throws Exception {
        byte[] body = new byte[(int) SIDECAR_MAX];
        new Random(7).nextBytes(body);
        CountDownLatch arrived = new CountDownLatch(1);
        upstream.held("/held.bin", body, arrived);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<RawHttp.Response> inFlight = threads.submit(() -> fetch("https://files.test/held.bin", SIDECAR_MAX));
            arrived.await();
            Future<?> closing = threads.submit(sidecar::close);
            // A host outside the list is refused at once (400) until the close has begun.
            RawHttp.Response later = fetch("https://elsewhere.test/a", 10);
            while (later.status() == 400) {
                later = fetch("https://elsewhere.test/a", 10);
            }
            assertCode(later, 503, "FILE_INGRESS_UNAVAILABLE");
            assertFalse(closing.isDone(), "the close waits for the fetch in flight");
            upstream.release.countDown();
            RawHttp.Response answer = inFlight.get(30, TimeUnit.SECONDS);
            assertEquals(200, answer.status());
            assertArrayEquals(body, answer.body());
            closing.get(30, TimeUnit.SECONDS);
        }
        assertThrows(UncheckedIOException.class, () -> RawHttp.send(address, "GET /healthz HTTP/1.1", new byte[0]));
    }

    @Test
    void healthz_answers_ok() {
        RawHttp.Response response = RawHttp.send(address, "GET /healthz HTTP/1.1", new byte[0]);
        assertEquals(200, response.status());
        assertEquals("ok\n", response.text());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "GET /fetch HTTP/1.1",
                "PUT /fetch HTTP/1.1",
                "DELETE /fetch HTTP/1.1",
                "POST /healthz HTTP/1.1",
                "GET / HTTP/1.1",
                "GET /fetch/ HTTP/1.1",
                "GET /healthz/x HTTP/1.1",
                "POST /mcp HTTP/1.1",
                "OPTIONS * HTTP/1.1",
                "POST /%66etch HTTP/1.1",
                "POST /fetch;x HTTP/1.1",
                "POST /fetch%3Bx HTTP/1.1",
                "POST //fetch HTTP/1.1",
                "POST /fetch%2F HTTP/1.1",
                "GET /%68ealthz HTTP/1.1",
                "GET /healthz;x HTTP/1.1",
                "GET /healthz;jsessionid=1 HTTP/1.1",
                "POST http://127.0.0.1/fetch HTTP/1.1",
                "GET http://127.0.0.1/healthz HTTP/1.1",
            })
    void every_other_route_is_not_found(String requestLine) {
        assertCode(RawHttp.send(address, requestLine + "\r\nContent-Length: 0", new byte[0]), 404, "NOT_FOUND");
    }

    @Test
    void a_foreign_host_header_is_refused_before_the_body_is_read() {
        upstream.bytes("/x", new byte[] {1});
        int port = address.getPort();
        List<String> foreign = List.of(
                "Host: attacker.example",
                "Host: attacker.example:" + port,
                "Host: 127.0.0.1",
                "Host: 127.0.0.1:" + (port == 65535 ? 1 : port + 1),
                "Host: 127.0.0.1.attacker.example:" + port);
        for (String host : foreign) {
            // The body never comes: a gate that read it first would wait here instead of answering.
            assertCode(postHeadersOnly(host), 421, "FILE_INGRESS_BAD_REQUEST");
        }
        // No Host, or two of them with one ours: Undertow itself refuses these with a bare 400 before the gate runs.
        for (String hosts : List.of(
                "X-No-Host: 1",
                "Host: 127.0.0.1:" + port + "\r\nHost: attacker.example",
                "Host: attacker.example\r\nHost: 127.0.0.1:" + port)) {
            int status = postHeadersOnly(hosts).status();
            assertTrue(status == 400 || status == 421, hosts + " was answered " + status);
        }
        byte[] json = "{\"download_url\":\"https://files.test/x\",\"max_bytes\":10}".getBytes(StandardCharsets.UTF_8);
        RawHttp.Response rebound = RawHttp.sendWithOwnHost(
                address,
                "POST /fetch HTTP/1.1\r\nHost: attacker.example:" + port
                        + "\r\nContent-Type: application/json\r\nContent-Length: " + json.length,
                json);
        assertCode(rebound, 421, "FILE_INGRESS_BAD_REQUEST");
        assertCode(
                RawHttp.sendWithOwnHost(address, "GET /healthz HTTP/1.1\r\nHost: attacker.example", new byte[0]),
                421,
                "FILE_INGRESS_BAD_REQUEST");
        assertEquals(List.of(), upstream.paths, "nothing was fetched for a foreign Host");
    }

    @Test
    void the_name_serve_was_given_for_the_sidecar_is_accepted_too() {
        try (UndertowIngressSidecar named =
                UndertowIngressSidecar.start("127.0.0.1", 0, command -> new byte[0], Set.of("files.internal"))) {
            int port = named.address().getPort();
            String healthz = "GET /healthz HTTP/1.1\r\nHost: ";
            assertEquals(
                    200,
                    RawHttp.sendWithOwnHost(named.address(), healthz + "FILES.internal:" + port, new byte[0])
                            .status());
            // a sidecar not given that name refuses it
            assertCode(
                    RawHttp.sendWithOwnHost(address, healthz + "files.internal:" + address.getPort(), new byte[0]),
                    421,
                    "FILE_INGRESS_BAD_REQUEST");
        }
    }

    /** A fetch request with a body announced but never sent, with {@code hostLines} for Host. */
    private RawHttp.Response postHeadersOnly(String hostLines) {
        return assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> RawHttp.sendWithOwnHost(
                        address,
                        "POST /fetch HTTP/1.1\r\n" + hostLines
                                + "\r\nContent-Type: application/json\r\nContent-Length: 60",
                        new byte[0]),
                hostLines);
    }

    @Test
    void the_loopback_names_and_the_compose_service_name_with_the_port_are_accepted() {
        int port = address.getPort();
        for (String host : List.of("127.0.0.1", "localhost", "LocalHost", "[::1]", "serverfs-file-ingress")) {
            RawHttp.Response response = RawHttp.sendWithOwnHost(
                    address, "GET /healthz HTTP/1.1\r\nHost: " + host + ":" + port, new byte[0]);
            assertEquals(200, response.status(), host);
        }
    }

    @Test
    void a_trickling_upstream_is_cut_at_the_fetch_deadline() {
        // One byte every 100 ms: no single read comes near the 1 s timeout, so only a whole-fetch deadline ends it.
        upstream.trickle("/drip", Duration.ofMillis(100));
        try (ApacheHttpsFetcher quick =
                        TestResolution.fetcher(Duration.ofSeconds(1), upstream.port(), upstream.port());
                UndertowIngressSidecar deadlined = UndertowIngressSidecar.start("127.0.0.1", 0, service(quick))) {
            long started = System.nanoTime();
            RawHttp.Response response = assertTimeoutPreemptively(
                    Duration.ofSeconds(20),
                    () -> RawHttp.postJson(
                            deadlined.address(),
                            "{\"download_url\":\"https://files.test/drip\",\"max_bytes\":2000000}"));
            assertCode(response, 502, "FILE_INGRESS_UPSTREAM_FAILED");
            long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
            assertTrue(millis < 5_000, "ended " + millis + " ms after the start, the deadline is 1 s");
        }
    }

    @Test
    void redirect_hops_share_one_deadline() {
        // Each hop answers in 0.4 s, within the 1 s read timeout, but the third one ends after the fetch's 1 s.
        upstream.slowRedirect("/s1", Duration.ofMillis(400), "/s2");
        upstream.slowRedirect("/s2", Duration.ofMillis(400), "/s3");
        upstream.slowRedirect("/s3", Duration.ofMillis(400), "/s4");
        upstream.bytes("/s4", new byte[] {1});
        try (ApacheHttpsFetcher quick =
                        TestResolution.fetcher(Duration.ofSeconds(1), upstream.port(), upstream.port());
                UndertowIngressSidecar deadlined = UndertowIngressSidecar.start("127.0.0.1", 0, service(quick))) {
            RawHttp.Response response = RawHttp.postJson(
                    deadlined.address(), "{\"download_url\":\"https://files.test/s1\",\"max_bytes\":10}");
            assertCode(response, 502, "FILE_INGRESS_UPSTREAM_FAILED");
            assertFalse(upstream.paths.contains("/s4"), "the hop after the deadline was not fetched");
        }
    }

    /** A sidecar service whose fetches have 1 s in all, as its fetcher has for connecting and each read. */
    private static FetchRemoteFileService service(ApacheHttpsFetcher fetcher) {
        return new FetchRemoteFileService(
                new SidecarPolicy(HostPolicy.fromConfiguration(TestResolution.HOSTS, false), SIDECAR_MAX, 3),
                fetcher,
                Duration.ofSeconds(1),
                Clock.systemUTC(),
                UndertowIngressSidecar.MAX_CONCURRENT_FETCHES);
    }

    @Test
    void a_fetch_returns_the_bytes_as_octet_stream_with_content_length() {
        byte[] body = new byte[200_000];
        new Random(3).nextBytes(body);
        upstream.bytes("/f.bin", body);
        RawHttp.Response response = fetch("https://files.test/f.bin?sig=x", 200_000);
        assertEquals(200, response.status());
        assertEquals("application/octet-stream", response.header("Content-Type"));
        assertEquals("200000", response.header("Content-Length"));
        assertArrayEquals(body, response.body());
    }

    @Test
    void a_zero_byte_file_is_a_200_with_an_empty_body() {
        upstream.bytes("/empty", new byte[0]);
        RawHttp.Response response = fetch("https://files.test/empty", 10);
        assertEquals(200, response.status());
        assertEquals("0", response.header("Content-Length"));
        assertEquals(0, response.body().length);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "not json",
                "[]",
                "\"https://files.test/x\"",
                "{}",
                "{\"download_url\":\"https://files.test/x\"}",
                "{\"max_bytes\":10}",
                "{\"download_url\":7,\"max_bytes\":10}",
                "{\"download_url\":null,\"max_bytes\":10}",
                "{\"download_url\":\"https://files.test/x\",\"max_bytes\":\"10\"}",
                "{\"download_url\":\"https://files.test/x\",\"max_bytes\":10.0}",
                "{\"download_url\":\"https://files.test/x\",\"max_bytes\":1e3}",
                "{\"download_url\":\"https://files.test/x\",\"max_bytes\":true}",
                "{\"download_url\":\"https://files.test/x\",\"max_bytes\":0}",
                "{\"download_url\":\"https://files.test/x\",\"max_bytes\":-5}",
                "{\"download_url\":\"https://files.test/x\",\"max_bytes\":10,\"max_bytes\":20}",
                "{\"download_url\":\"https://files.test/x\",\"max_bytes\":10} trailing",
                "{\"download_url\":\"https://files.test/x\",\"max_bytes\":10}{\"max_bytes\":20}",
                "{\"download_url\":\"https://files.test/x\",\"max_bytes\":10}]",
            })
    void malformed_bodies_are_bad_requests(String json) {
        assertCode(RawHttp.postJson(address, json), 400, "FILE_INGRESS_BAD_REQUEST");
    }

    @Test
    void content_type_and_length_are_checked_before_the_body() {
        byte[] json = "{\"download_url\":\"https://files.test/x\",\"max_bytes\":10}".getBytes(StandardCharsets.UTF_8);
        assertCode(
                RawHttp.send(
                        address,
                        "POST /fetch HTTP/1.1\r\nContent-Type: text/plain\r\nContent-Length: " + json.length,
                        json),
                400,
                "FILE_INGRESS_BAD_REQUEST");
        assertCode(
                RawHttp.send(address, "POST /fetch HTTP/1.1\r\nContent-Length: " + json.length, json),
                400,
                "FILE_INGRESS_BAD_REQUEST");
        assertCode(
                RawHttp.send(
                        address,
                        "POST /fetch HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 0",
                        new byte[0]),
                400,
                "FILE_INGRESS_BAD_REQUEST");
        byte[] chunked = ("%x\r\n".formatted(json.length) + new String(json, StandardCharsets.UTF_8) + "\r\n0\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8);
        assertCode(
                RawHttp.send(
                        address,
                        "POST /fetch HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked",
                        chunked),
                400,
                "FILE_INGRESS_BAD_REQUEST");
        assertCode(
                RawHttp.send(
                        address,
                        "POST /fetch HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 65537",
                        new byte[0]),
                413,
                "FILE_INGRESS_BAD_REQUEST");
    }

    @Test
    void a_content_type_with_parameters_is_accepted() {
        upstream.bytes("/x", new byte[] {5});
        byte[] json = "{\"download_url\":\"https://files.test/x\",\"max_bytes\":10}".getBytes(StandardCharsets.UTF_8);
        RawHttp.Response response = RawHttp.send(
                address,
                "POST /fetch HTTP/1.1\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: "
                        + json.length,
                json);
        assertEquals(200, response.status());
        assertArrayEquals(new byte[] {5}, response.body());
    }

    @Test
    void policy_refusals_are_400_and_upstream_trouble_is_502() {
        upstream.bytes("/x", new byte[] {1});
        assertCode(fetch("http://files.test/x", 10), 400, "FILE_INGRESS_URL_NOT_ALLOWED");
        assertCode(fetch("https://files.test:8443/x", 10), 400, "FILE_INGRESS_URL_NOT_ALLOWED");
        assertCode(fetch("https://evil.example/x", 10), 400, "FILE_INGRESS_HOST_NOT_ALLOWED");
        assertCode(fetch("https://private.test/x", 10), 400, "FILE_INGRESS_ADDRESS_NOT_ALLOWED");
        assertCode(fetch("https://nowhere.test/x", 10), 502, "FILE_INGRESS_DNS_FAILED");
        assertCode(fetch("https://files.test/missing", 10), 502, "FILE_INGRESS_UPSTREAM_FAILED");
        assertCode(fetch("https://wrong.test/x", 10), 502, "FILE_INGRESS_UPSTREAM_FAILED");
    }

    @Test
    void a_valid_redirect_chain_is_followed_hop_by_hop() {
        upstream.redirect("/a", 302, "https://hop.test/b");
        upstream.redirect("/b", 307, "/c?q=1");
        upstream.redirect("/c", 301, "https://files.test/d");
        upstream.bytes("/d", new byte[] {4, 2});
        RawHttp.Response response = fetch("https://files.test/a", 10);
        assertEquals(200, response.status(), response.text());
        assertArrayEquals(new byte[] {4, 2}, response.body());
        assertEquals(List.of("/a", "/b", "/c?q=1", "/d"), upstream.paths);
    }

    @Test
    void a_fourth_redirect_is_too_many() {
        upstream.redirect("/1", 302, "/2");
        upstream.redirect("/2", 302, "/3");
        upstream.redirect("/3", 302, "/4");
        upstream.redirect("/4", 302, "/5");
        upstream.bytes("/5", new byte[] {1});
        assertCode(fetch("https://files.test/1", 10), 502, "FILE_INGRESS_TOO_MANY_REDIRECTS");
        assertEquals(4, upstream.paths.size());
    }

    @Test
    void redirects_to_forbidden_hosts_addresses_or_schemes_are_refused() {
        upstream.redirect("/to-host", 302, "https://evil.example/x");
        upstream.redirect("/to-address", 302, "https://private.test/x");
        upstream.redirect("/to-mixed", 302, "https://mixed.test/x");
        upstream.redirect("/to-http", 302, "http://files.test/x");
        upstream.redirect("/to-port", 302, "https://files.test:444/x");
        upstream.redirect("/to-userinfo", 302, "https://user@files.test/x");
        upstream.bytes("/x", new byte[] {1});
        assertCode(fetch("https://files.test/to-host", 10), 400, "FILE_INGRESS_HOST_NOT_ALLOWED");
        assertCode(fetch("https://files.test/to-address", 10), 400, "FILE_INGRESS_ADDRESS_NOT_ALLOWED");
        assertCode(fetch("https://files.test/to-mixed", 10), 400, "FILE_INGRESS_ADDRESS_NOT_ALLOWED");
        assertCode(fetch("https://files.test/to-http", 10), 400, "FILE_INGRESS_URL_NOT_ALLOWED");
        assertCode(fetch("https://files.test/to-port", 10), 400, "FILE_INGRESS_URL_NOT_ALLOWED");
        assertCode(fetch("https://files.test/to-userinfo", 10), 400, "FILE_INGRESS_URL_NOT_ALLOWED");
        assertEquals(0, upstream.paths.stream().filter("/x"::equals).count(), "no forbidden hop was fetched");
    }

    @Test
    void the_effective_limit_is_the_smaller_of_request_and_sidecar_ceiling() {
        upstream.bytes("/101", new byte[101]);
        upstream.bytes("/100", new byte[100]);
        upstream.chunked("/over-sidecar", SIDECAR_MAX + 1);
        upstream.chunked("/at-sidecar", SIDECAR_MAX);
        assertCode(fetch("https://files.test/101", 100), 413, "BINARY_PAYLOAD_TOO_LARGE");
        assertEquals(100, fetch("https://files.test/100", 100).body().length);
        assertCode(fetch("https://files.test/over-sidecar", 5 * SIDECAR_MAX), 413, "BINARY_PAYLOAD_TOO_LARGE");
        assertEquals(
                SIDECAR_MAX,
                fetch("https://files.test/at-sidecar", 5 * SIDECAR_MAX).body().length);
        assertEquals(
                SIDECAR_MAX,
                fetch("https://files.test/at-sidecar", "1000000000000000000000000000000")
                        .body()
                        .length);
    }

    private RawHttp.Response fetch(String url, String rawMax) {
        return RawHttp.postJson(address, "{\"download_url\":\"" + url + "\",\"max_bytes\":" + rawMax + "}");
    }
}
