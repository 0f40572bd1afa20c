package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The shared model-API mock itself: what the cancellation tests rely on it to report. */
class MockModelServerTest {

    /**
     * A client can go away before a stream it asked for is held: a cancelled turn's child that closed its connection
     * while the mock had recorded the request but not yet written the first event (a loaded machine). That stream
     * ended too; before, only a stream that reached its hold counted, and the cancel tests waited 60 s for nothing.
     */
    @Test
    void a_stream_whose_client_went_away_before_it_was_held_counts_as_ended() throws Exception {
        CountDownLatch clientGone = new CountDownLatch(1);
        try (MockModelServer server = new MockModelServer("mock-test", "/v1/messages", (body, exchange) -> {
            try {
                clientGone.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            MockModelServer.Sse sse = exchange.heldSse();
            for (int i = 0; i < 20; i++) {
                sse.event(MockModelServer.JSON.createObjectNode().put("type", "ping"));
            }
            sse.hold(": keep-alive\n\n");
        })) {
            int port = URI.create(server.origin()).getPort();
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
                OutputStream out = client.getOutputStream();
                out.write(("POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                + "Content-Length: 2\r\n\r\n{}")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                server.awaitBodies(1, Duration.ofSeconds(10));
                client.setSoLinger(true, 0); // gone at once: the mock's next write fails
            }
            clientGone.countDown();
            assertTrue(server.awaitHoldEnded(Duration.ofSeconds(10)), "the stream whose client went away ended");
        }
    }
}
