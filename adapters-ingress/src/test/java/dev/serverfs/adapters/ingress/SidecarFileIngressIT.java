package dev.serverfs.adapters.ingress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.serverfs.application.service.FetchRemoteFileService;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.ingress.HostPolicy;
import dev.serverfs.domain.ingress.SidecarPolicy;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class SidecarFileIngressIT {

    private static void assertCode(ErrorCode expected, Runnable call) {
        ServerFsException e = assertThrows(ServerFsException.class, call::run);
        assertEquals(expected, e.code());
        assertFalse(e.getMessage().contains(".test"), "messages never reflect the URL");
        assertFalse(e.getMessage().contains("http"), "messages never reflect the URL");
    }

    /** The MCP-side client against the real sidecar, which fetches from a local HTTPS upstream. */
    @Nested
    class AgainstTheRealSidecar {
        private final LocalHttpsServer upstream = new LocalHttpsServer(TestTls.TRUSTED);
        private final ApacheHttpsFetcher fetcher =
                TestResolution.fetcher(Duration.ofSeconds(5), upstream.port(), upstream.port());
        private final UndertowIngressSidecar sidecar = UndertowIngressSidecar.start(
                "127.0.0.1",
                0,
                new FetchRemoteFileService(
                        new SidecarPolicy(HostPolicy.fromConfiguration(TestResolution.HOSTS, false), 8_388_608, 3),
                        fetcher,
                        Duration.ofSeconds(5),
                        Clock.systemUTC(),
                        UndertowIngressSidecar.MAX_CONCURRENT_FETCHES));
        private final SidecarFileIngress client = new SidecarFileIngress(
                URI.create("http://127.0.0.1:" + sidecar.address().getPort() + "/fetch"), Duration.ofSeconds(10));

        @AfterEach
        void stop() {
            client.close();
            sidecar.close();
            fetcher.close();
            upstream.close();
        }

        @Test
        void bytes_arrive_unchanged() {
            byte[] body = new byte[1_234_567];
            new Random(11).nextBytes(body);
            upstream.bytes("/f", body);
            assertArrayEquals(body, client.fetch("https://files.test/f?sig=1", body.length));
        }

        @Test
        void sidecar_codes_pass_through() {
            upstream.redirect("/loop", 302, "/loop");
            upstream.bytes("/ten", new byte[10]);
            assertCode(ErrorCode.FILE_INGRESS_URL_NOT_ALLOWED, () -> client.fetch("http://files.test/x", 10));
            assertCode(ErrorCode.FILE_INGRESS_HOST_NOT_ALLOWED, () -> client.fetch("https://evil.example/x", 10));
            assertCode(ErrorCode.FILE_INGRESS_ADDRESS_NOT_ALLOWED, () -> client.fetch("https://private.test/x", 10));
            assertCode(ErrorCode.FILE_INGRESS_DNS_FAILED, () -> client.fetch("https://nowhere.test/x", 10));
            assertCode(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, () -> client.fetch("https://files.test/missing", 10));
            assertCode(ErrorCode.FILE_INGRESS_TOO_MANY_REDIRECTS, () -> client.fetch("https://files.test/loop", 10));
            assertCode(ErrorCode.BINARY_PAYLOAD_TOO_LARGE, () -> client.fetch("https://files.test/ten", 9));
            assertEquals(10, client.fetch("https://files.test/ten", 10).length);
        }
    }

    /** The client against a scripted, misbehaving sidecar: it must stay within its own limits and codes. */
    @Nested
    class AgainstAMisbehavingSidecar {
        private final HttpServer fake;
        private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        private final List<String> requests = new CopyOnWriteArrayList<>();
        private final AtomicLong written = new AtomicLong();
        private final CountDownLatch release = new CountDownLatch(1);
        private volatile HttpHandler behaviour;
        private final SidecarFileIngress client;

        AgainstAMisbehavingSidecar() {
            try {
                fake = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            fake.setExecutor(executor);
            fake.createContext("/", exchange -> {
                try (exchange) {
                    requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                            + exchange.getRequestHeaders().getFirst("Content-Type") + " "
                            + exchange.getRequestHeaders().getFirst("Accept") + " "
                            + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                    behaviour.handle(exchange);
                }
            });
            fake.start();
            client = new SidecarFileIngress(
                    URI.create("http://127.0.0.1:" + fake.getAddress().getPort() + "/fetch"), Duration.ofSeconds(5));
        }

        @AfterEach
        void stop() {
            client.close();
            release.countDown();
            fake.stop(0);
            executor.shutdownNow();
        }

        private void respond(int status, String body) {
            behaviour = exchange -> {
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
                if (bytes.length > 0) {
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(bytes);
                    }
                }
            };
        }

        private void stream(int status, long total) {
            behaviour = exchange -> {
                exchange.sendResponseHeaders(status, 0);
                byte[] chunk = new byte[16 * 1024];
                try (OutputStream out = exchange.getResponseBody()) {
                    for (long left = total; left > 0; left -= chunk.length) {
                        out.write(chunk, 0, (int) Math.min(chunk.length, left));
                        written.addAndGet(Math.min(chunk.length, left));
                    }
                } catch (IOException clientStoppedReading) {
                    // expected
                }
            };
        }

        @Test
        void the_request_follows_the_internal_protocol() {
            respond(200, "abc");
            assertArrayEquals(
                    "abc".getBytes(StandardCharsets.UTF_8), client.fetch("https://files.test/a?b=\"c\"", 8_388_608));
            assertEquals(
                    List.of("POST /fetch application/json; charset=UTF-8 application/octet-stream"
                            + " {\"download_url\":\"https://files.test/a?b=\\\"c\\\"\",\"max_bytes\":8388608}"),
                    requests);
        }

        @Test
        void codes_that_are_not_upper_case_words_become_file_ingress_failed() {
            for (String body : List.of(
                    "{\"code\":\"lower_case\"}",
                    "{\"code\":\"FILE INGRESS\"}",
                    "{\"code\":\"\"}",
                    "{\"code\":5}",
                    "{\"code\":null}",
                    "{}",
                    "[\"FILE_INGRESS_DNS_FAILED\"]",
                    "<html>oops</html>",
                    "")) {
                respond(502, body);
                assertCode(ErrorCode.FILE_INGRESS_FAILED, () -> client.fetch("https://files.test/x", 10));
            }
        }

        @Test
        void well_formed_codes_the_sidecar_cannot_produce_become_file_ingress_failed() {
            respond(400, "{\"code\":\"WORKDIR_BUSY\"}");
            assertCode(ErrorCode.FILE_INGRESS_FAILED, () -> client.fetch("https://files.test/x", 10));
            respond(400, "{\"code\":\"SOMETHING_NEW_2\"}");
            assertCode(ErrorCode.FILE_INGRESS_FAILED, () -> client.fetch("https://files.test/x", 10));
            respond(413, "{\"code\":\"BINARY_PAYLOAD_TOO_LARGE\"}");
            assertCode(ErrorCode.BINARY_PAYLOAD_TOO_LARGE, () -> client.fetch("https://files.test/x", 10));
        }

        @Test
        void at_most_4096_bytes_of_an_error_body_are_read() {
            respond(502, "{\"pad\":\"" + "x".repeat(5000) + "\",\"code\":\"FILE_INGRESS_DNS_FAILED\"}");
            assertCode(ErrorCode.FILE_INGRESS_FAILED, () -> client.fetch("https://files.test/x", 10));
            respond(502, "{\"pad\":\"" + "x".repeat(4000) + "\",\"code\":\"FILE_INGRESS_DNS_FAILED\"}");
            assertCode(ErrorCode.FILE_INGRESS_DNS_FAILED, () -> client.fetch("https://files.test/x", 10));
            stream(502, 256L * 1024 * 1024);
            assertTimeoutPreemptively(
                    Duration.ofSeconds(30),
                    () -> assertCode(ErrorCode.FILE_INGRESS_FAILED, () -> client.fetch("https://files.test/x", 10)));
            assertTrue(written.get() < 64L * 1024 * 1024, "the client stopped reading the huge error body");
        }

        @Test
        void redirects_from_the_sidecar_are_not_followed() {
            behaviour = exchange -> {
                if (exchange.getRequestURI().getPath().equals("/fetch")) {
                    exchange.getResponseHeaders().set("Location", "/elsewhere");
                    exchange.sendResponseHeaders(307, -1);
                } else {
                    exchange.sendResponseHeaders(200, 1);
                    exchange.getResponseBody().write(1);
                }
            };
            assertCode(ErrorCode.FILE_INGRESS_FAILED, () -> client.fetch("https://files.test/x", 10));
            assertEquals(1, requests.size());
        }

        @Test
        void the_byte_ceiling_is_enforced_again_on_the_mcp_side() {
            respond(200, "x".repeat(11));
            assertCode(ErrorCode.BINARY_PAYLOAD_TOO_LARGE, () -> client.fetch("https://files.test/x", 10));
            respond(200, "x".repeat(10));
            assertEquals(10, client.fetch("https://files.test/x", 10).length);
            stream(200, 256L * 1024 * 1024);
            assertTimeoutPreemptively(
                    Duration.ofSeconds(30),
                    () -> assertCode(
                            ErrorCode.BINARY_PAYLOAD_TOO_LARGE, () -> client.fetch("https://files.test/x", 100_000)));
            assertTrue(written.get() < 64L * 1024 * 1024, "the client stopped at max + 1 bytes");
            written.set(0);
            stream(200, 100_000);
            assertEquals(100_000, client.fetch("https://files.test/x", 100_000).length);
        }

        @Test
        void a_stalled_sidecar_is_unavailable_after_the_timeout() {
            behaviour = exchange -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            try (SidecarFileIngress quick = new SidecarFileIngress(
                    URI.create("http://127.0.0.1:" + fake.getAddress().getPort() + "/fetch"), Duration.ofMillis(300))) {
                assertCode(ErrorCode.FILE_INGRESS_UNAVAILABLE, () -> quick.fetch("https://files.test/x", 10));
            }
        }

        @Test
        void a_sub_millisecond_timeout_still_bounds_the_call() {
            // SERVERFS_FILE_INGRESS_TIMEOUT_SECONDS=0.0001 is accepted; it must not become "no timeout" (0 ms).
            behaviour = exchange -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            try (SidecarFileIngress tiny = new SidecarFileIngress(
                    URI.create("http://127.0.0.1:" + fake.getAddress().getPort() + "/fetch"),
                    Duration.ofNanos(100_000))) {
                assertTimeoutPreemptively(
                        Duration.ofSeconds(20),
                        () -> assertCode(
                                ErrorCode.FILE_INGRESS_UNAVAILABLE, () -> tiny.fetch("https://files.test/x", 10)));
            }
        }
    }

    @Test
    void a_sidecar_that_is_not_listening_is_unavailable() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        try (SidecarFileIngress client =
                new SidecarFileIngress(URI.create("http://127.0.0.1:" + port + "/fetch"), Duration.ofSeconds(2))) {
            assertCode(ErrorCode.FILE_INGRESS_UNAVAILABLE, () -> client.fetch("https://files.test/x", 10));
        }
    }

    @Test
    void an_unresolvable_sidecar_host_is_unavailable() {
        try (SidecarFileIngress client = new SidecarFileIngress(
                URI.create("http://serverfs-file-ingress.invalid:8081/fetch"), Duration.ofSeconds(2))) {
            assertCode(ErrorCode.FILE_INGRESS_UNAVAILABLE, () -> client.fetch("https://files.test/x", 10));
        }
    }

    @Test
    void the_default_url_is_the_compose_service() {
        assertEquals("http://serverfs-file-ingress:8081/fetch", SidecarFileIngress.DEFAULT_URL.toString());
    }
}
