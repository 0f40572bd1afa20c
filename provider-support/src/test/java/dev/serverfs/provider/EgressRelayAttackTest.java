package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task attacking the egress relay from its view: odd target forms, a request-target that names another host than
 * its {@code Host}, pipelined requests, a huge head (holding every connection of a relay: ProviderSandboxIT). Two loopback
 * servers: {@code listed} (an operator's entry) and {@code own} (one of ServerFS' own ports, listed too).
 */
class EgressRelayAttackTest {
    @TempDir
    Path dir;

    private final List<HttpServer> servers = new ArrayList<>();
    private final AtomicInteger listedHits = new AtomicInteger();
    private final AtomicInteger ownHits = new AtomicInteger();
    private int listed;
    private int own;
    private EgressRelay relay;

    @BeforeEach
    void start() throws IOException {
        listed = server(listedHits);
        own = server(ownHits);
        relay = EgressRelay.open(
                dir.resolve("egress.sock"),
                EgressPolicy.of(
                        Map.of(),
                        List.of("localhost:" + listed, "localhost:" + own, "0.0.0.0:" + own, "[::1]:" + own),
                        Set.of(own)));
    }

    private int server(AtomicInteger hits) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", exchange -> {
            hits.incrementAndGet();
            byte[] body = ("hit " + exchange.getRequestURI()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        servers.add(server);
        return server.getAddress().getPort();
    }

    @AfterEach
    void stop() throws IOException {
        relay.close();
        servers.forEach(s -> s.stop(0));
    }

    private SocketChannel connect(EgressRelay to) throws IOException {
        SocketChannel client = SocketChannel.open(StandardProtocolFamily.UNIX);
        client.connect(UnixDomainSocketAddress.of(to.socket()));
        return client;
    }

    /** Everything the relay answers {@code request} until it closes. */
    private String through(String request) throws IOException {
        try (SocketChannel client = connect(relay)) {
            Channels.newOutputStream(client).write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(Channels.newInputStream(client).readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void odd_forms_of_a_target_reach_nothing_unlisted_and_never_serverfs_own_port() throws IOException {
        for (String target : List.of(
                "localhost.:" + listed, // trailing dot: another name than the entry
                "127.0.0.1:" + listed, // the address of a listed name is not listed
                "[::1]:" + listed,
                "127.1:" + listed,
                "2130706433:" + listed,
                "[::ffff:127.0.0.1]:" + listed,
                "localhost:0" + listed + "0",
                "LOCALHOST:" + own, // listed, in any case: but ServerFS' own port on a local address
                "0.0.0.0:" + own,
                "[::1]:" + own)) {
            String connect = through("CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n\r\n");
            assertTrue(connect.startsWith("HTTP/1.1 403") || connect.startsWith("HTTP/1.1 400"), target + connect);
            String plain = through("GET http://" + target + "/x HTTP/1.1\r\nHost: " + target + "\r\n\r\n");
            assertTrue(plain.startsWith("HTTP/1.1 403") || plain.startsWith("HTTP/1.1 400"), target + plain);
        }
        assertEquals(0, listedHits.get());
        assertEquals(0, ownHits.get());
        assertTrue(through("CONNECT LocalHost:" + listed + " HTTP/1.1\r\n\r\nGET /z HTTP/1.1\r\nHost: x\r\n"
                        + "Connection: close\r\n\r\n")
                .startsWith("HTTP/1.1 200 Connection established"));
    }

    @Test
    void the_host_header_user_information_and_pipelined_requests_never_change_the_target() throws IOException {
        String answer =
                through("GET http://127.0.0.1:" + own + "@localhost:" + listed + "/a HTTP/1.1\r\nHost: 127.0.0.1:"
                        + own + "\r\n\r\nGET http://localhost:" + own + "/b HTTP/1.1\r\nHost: localhost:" + own
                        + "\r\n\r\nCONNECT localhost:" + own + " HTTP/1.1\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        assertEquals(0, ownHits.get(), "every byte of the connection goes to the target its first line named");
        assertTrue(listedHits.get() >= 1, answer);
    }

    @Test
    void a_head_over_the_limit_is_a_bad_request_and_connects_nowhere() throws Exception {
        try (SocketChannel client = connect(relay)) {
            byte[] head = ("GET http://localhost:" + listed + "/ HTTP/1.1\r\nX: " + "a".repeat(EgressRelay.MAX_HEAD)
                            + "\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1);
            // the relay answers and closes before the head has all been sent
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    Channels.newOutputStream(client).write(head);
                } catch (IOException e) {
                    // closed by the relay
                }
            });
            String answer;
            try {
                answer = new String(Channels.newInputStream(client).readAllBytes(), StandardCharsets.ISO_8859_1);
            } catch (IOException e) {
                answer = "reset"; // closed with the rest of the head unread: the answer may be lost
            }
            writer.join();
            assertTrue(answer.startsWith("HTTP/1.1 400") || answer.equals("reset"), answer);
        }
        assertEquals(0, listedHits.get());
    }
}
