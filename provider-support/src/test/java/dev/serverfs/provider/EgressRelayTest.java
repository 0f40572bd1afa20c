package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The egress relay on the host (the only network of a provider's view): it forwards plain {@code http} requests and
 * {@code CONNECT} tunnels to what its policy admits, and answers everything else without connecting anywhere.
 */
class EgressRelayTest {
    @TempDir
    Path dir;

    private HttpServer target;
    private final AtomicInteger hits = new AtomicInteger();
    private int port;

    @BeforeEach
    void start() throws IOException {
        target = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        target.createContext("/", exchange -> {
            hits.incrementAndGet();
            byte[] body = ("hello " + exchange.getRequestURI()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        target.start();
        port = target.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        target.stop(0);
    }

    private EgressPolicy listing(String entry, Set<Integer> ownPorts) {
        return EgressPolicy.of(Map.of(), List.of(entry), ownPorts);
    }

    /** Sends {@code request} through a relay with {@code policy}; everything it answers until it closes. */
    private String through(EgressPolicy policy, String request) throws IOException {
        try (EgressRelay relay = EgressRelay.open(dir.resolve("egress.sock"), policy);
                SocketChannel client = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            client.connect(UnixDomainSocketAddress.of(relay.socket()));
            Channels.newOutputStream(client).write(request.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = Channels.newInputStream(client);
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void a_plain_request_to_an_admitted_target_is_forwarded_in_origin_form() throws IOException {
        String answer = through(
                listing("127.0.0.1:" + port, Set.of()),
                "GET http://127.0.0.1:" + port + "/v1/x?y=1 HTTP/1.1\r\nHost: 127.0.0.1:" + port
                        + "\r\nProxy-Connection: keep-alive\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        assertTrue(answer.endsWith("hello /v1/x?y=1"), answer);
    }

    @Test
    void a_tunnel_to_an_admitted_target_carries_bytes_both_ways() throws IOException {
        String answer = through(
                listing("127.0.0.1:" + port, Set.of()),
                "CONNECT 127.0.0.1:" + port + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n"
                        + "GET /tunnelled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.1 200"), answer);
        assertTrue(answer.endsWith("hello /tunnelled"), answer);
    }

    @Test
    void a_target_no_entry_admits_is_refused_without_connecting() throws IOException {
        EgressPolicy other = listing("127.0.0.1:" + (port == 65535 ? 1 : port + 1), Set.of());
        assertTrue(through(other, "GET http://127.0.0.1:" + port + "/ HTTP/1.1\r\n\r\n")
                .startsWith("HTTP/1.1 403"));
        assertTrue(through(other, "CONNECT 127.0.0.1:" + port + " HTTP/1.1\r\n\r\n")
                .startsWith("HTTP/1.1 403"));
        assertTrue(through(EgressPolicy.none(), "CONNECT localhost:" + port + " HTTP/1.1\r\n\r\n")
                .startsWith("HTTP/1.1 403"));
        assertEquals(0, hits.get());
    }

    @Test
    void serverfs_own_port_is_refused_even_when_listed() throws IOException {
        EgressPolicy own = listing("127.0.0.1:" + port, Set.of(port));
        assertTrue(
                through(own, "CONNECT 127.0.0.1:" + port + " HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 403"));
        assertTrue(through(own, "GET http://127.0.0.1:" + port + "/mcp HTTP/1.1\r\n\r\n")
                .startsWith("HTTP/1.1 403"));
        assertEquals(0, hits.get());
    }

    @Test
    void what_is_not_a_proxy_request_is_a_bad_request() throws IOException {
        EgressPolicy policy = listing("127.0.0.1:" + port, Set.of());
        assertTrue(through(policy, "GET /v1/x HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 400"));
        assertTrue(through(policy, "GET https://127.0.0.1:" + port + "/ HTTP/1.1\r\n\r\n")
                .startsWith("HTTP/1.1 400"));
        assertTrue(through(policy, "CONNECT 127.0.0.1 HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 400"));
        assertTrue(through(policy, "nonsense\r\n\r\n").startsWith("HTTP/1.1 400"));
        assertEquals(0, hits.get());
    }

    @Test
    void a_default_entry_that_resolves_to_a_non_public_address_is_refused() {
        EgressPolicy defaults = new EgressPolicy(
                List.of(
                        new EgressPolicy.Entry("localhost", port, false),
                        new EgressPolicy.Entry("10.1.2.3", 443, false)),
                Set.of());
        assertTrue(defaults.admit("localhost", port).isEmpty());
        assertTrue(defaults.admit("10.1.2.3", 443).isEmpty());
        assertTrue(
                listing("localhost:" + port, Set.of()).admit("LOCALHOST", port).isPresent(), "listed: admitted");
    }

    @Test
    void endpoints_come_from_the_base_url_variables_and_entries_must_be_host_port() {
        EgressPolicy policy = EgressPolicy.of(
                Map.of("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + port, "OPENAI_BASE_URL", "https://gw.example/v1"),
                List.of("[::1]:8000"),
                Set.of());
        assertTrue(policy.entries().contains(new EgressPolicy.Entry("127.0.0.1", port, true)));
        assertTrue(policy.entries().contains(new EgressPolicy.Entry("gw.example", 443, true)));
        assertTrue(policy.entries().contains(new EgressPolicy.Entry("::1", 8000, true)));
        assertTrue(policy.entries().contains(new EgressPolicy.Entry("api.anthropic.com", 443, false)));
        assertTrue(EgressPolicy.parse("::1:80", true).isEmpty());
        assertTrue(EgressPolicy.parse("host", true).isEmpty());
        assertTrue(EgressPolicy.parse("host:0", true).isEmpty());
        assertTrue(EgressPolicy.parse("host/x:80", true).isEmpty());
    }

    /**
     * A one-connection upstream proxy on loopback: records the head it is sent, answers {@code answer}, then closes.
     */
    private static final class FakeProxy implements AutoCloseable {
        final ServerSocket server;
        final StringBuilder head = new StringBuilder();
        final Thread thread;

        FakeProxy(String answer) throws IOException {
            server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
            thread = Thread.ofVirtual().start(() -> {
                try (Socket s = server.accept()) {
                    InputStream in = s.getInputStream();
                    while (!head.toString().endsWith("\r\n\r\n")) {
                        int b = in.read();
                        if (b < 0) {
                            break;
                        }
                        head.append((char) b);
                    }
                    s.getOutputStream().write(answer.getBytes(StandardCharsets.ISO_8859_1));
                } catch (IOException e) {
                    // closed
                }
            });
        }

        URI uri(String userInfo) {
            return URI.create("http://" + userInfo + "127.0.0.1:" + server.getLocalPort());
        }

        String head() throws InterruptedException {
            thread.join(10_000);
            return head.toString();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    @Test
    void through_the_hosts_own_proxy_a_tunnel_is_asked_of_it_with_its_credentials() throws Exception {
        try (FakeProxy upstream = new FakeProxy("HTTP/1.1 200 OK\r\n\r\ntunnel-ok")) {
            EgressPolicy policy = EgressPolicy.of(
                    Map.of(),
                    List.of(),
                    Set.of(),
                    new EgressPolicy.Upstream(Optional.of(upstream.uri("u:p@")), Optional.empty(), List.of()));
            String answer = through(policy, "CONNECT api.anthropic.com:443 HTTP/1.1\r\n\r\n");
            assertEquals("HTTP/1.1 200 Connection established\r\n\r\ntunnel-ok", answer);
            String head = upstream.head();
            assertTrue(head.startsWith("CONNECT api.anthropic.com:443 HTTP/1.1\r\n"), head);
            assertTrue(head.contains("Proxy-Authorization: Basic dTpw\r\n"), head);
        }
    }

    @Test
    void through_the_hosts_own_proxy_a_plain_request_keeps_its_absolute_form() throws Exception {
        try (FakeProxy upstream = new FakeProxy("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nvia")) {
            EgressPolicy policy = EgressPolicy.of(
                    Map.of("OPENAI_BASE_URL", "http://gw.example:8080/v1"),
                    List.of(),
                    Set.of(),
                    new EgressPolicy.Upstream(Optional.empty(), Optional.of(upstream.uri("")), List.of()));
            String answer = through(policy, "POST http://gw.example:8080/v1/responses HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(answer.endsWith("via"), answer);
            String head = upstream.head();
            assertTrue(head.startsWith("POST http://gw.example:8080/v1/responses HTTP/1.1\r\n"), head);
            assertTrue(head.contains("Connection: close"), head);
        }
    }

    @Test
    void through_the_hosts_own_proxy_nothing_unlisted_is_asked_and_no_proxy_names_go_direct() throws Exception {
        try (FakeProxy upstream = new FakeProxy("HTTP/1.1 200 OK\r\n\r\n")) {
            EgressPolicy.Upstream via = new EgressPolicy.Upstream(
                    Optional.of(upstream.uri("")), Optional.of(upstream.uri("")), List.of("localhost", ".internal"));
            EgressPolicy policy =
                    EgressPolicy.of(Map.of(), List.of("127.0.0.1:" + port, "localhost:" + port), Set.of(port), via);
            assertTrue(
                    through(policy, "CONNECT evil.example:443 HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 403"));
            assertTrue(
                    through(policy, "CONNECT 127.0.0.1:" + port + " HTTP/1.1\r\n\r\n")
                            .startsWith("HTTP/1.1 403"),
                    "ServerFS' own port, even listed and through the proxy");
            assertTrue(
                    through(policy, "GET http://localhost:" + port + "/ HTTP/1.1\r\n\r\n")
                            .startsWith("HTTP/1.1 403"),
                    "NO_PROXY: direct, and the own port is refused there too");
            assertEquals(0, hits.get());
            assertEquals(Optional.empty(), via.forTarget(true, "a.b.internal"));
            assertEquals(Optional.empty(), via.forTarget(false, "LOCALHOST"));
            assertTrue(via.forTarget(true, "api.openai.com").isPresent());
        }
    }

    @Test
    void the_hosts_proxy_comes_from_its_environment() {
        EgressPolicy.Upstream up = EgressPolicy.Upstream.of(Map.of(
                "https_proxy", "proxy.corp:3128", "HTTP_PROXY", "http://p2:8080", "no_proxy", " a.example ,.b "));
        assertEquals(Optional.of(URI.create("http://proxy.corp:3128")), up.https());
        assertEquals(Optional.of(URI.create("http://p2:8080")), up.http());
        assertEquals(List.of("a.example", ".b"), up.noProxy());
        assertEquals(EgressPolicy.Upstream.NONE, EgressPolicy.Upstream.of(Map.of("HTTPS_PROXY", "socks5://x:1")));
    }

    @Test
    void a_connection_that_sends_no_head_is_closed_and_connections_are_bounded() throws IOException {
        try (EgressRelay relay =
                        EgressRelay.open(dir.resolve("bounded.sock"), EgressPolicy.none(), Duration.ofMillis(200), 1);
                SocketChannel idle = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            idle.connect(UnixDomainSocketAddress.of(relay.socket()));
            try (SocketChannel second = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                second.connect(UnixDomainSocketAddress.of(relay.socket()));
                assertEquals(-1, Channels.newInputStream(second).read(), "one connection at most");
            }
            assertEquals(-1, Channels.newInputStream(idle).read(), "closed after the head timeout");
        }
    }
}
