package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * {@link McpServer#close} is graceful: it stops accepting, lets the exchanges in flight finish (within a bound), and
 * only then stops the I/O threads that complete them. Stopping them first cut in-flight answers off and, when an
 * answer was already written, made Undertow log {@code UT005071 ... IllegalStateException} for the completion it
 * could no longer hand to the stopped I/O thread. The call here is a stateless {@code read_text_file} whose use case
 * blocks until it is released or interrupted, on a real Undertow on port 0; waits are on latches and on the closing
 * thread's state, never on a clock.
 */
class GracefulCloseIT {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private Level rootLevel;
    private McpServer server;
    private int port;

    @BeforeEach
    void start() {
        rootLevel = root.getLevel();
        root.setLevel(Level.WARN);
        logged.start();
        root.addAppender(logged);
        List<McpTool> tools = RawStatelessCall.blockingReadTools(started, release, stopped::countDown);
        server = McpServer.start(
                McpSettings.loopback(0, 64 * 1024, "9.8.7-test"), new Fixtures.RecordingAuditLog(), tools);
        port = server.port();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.close();
        root.detachAppender(logged);
        root.setLevel(rootLevel);
    }

    @Test
    void a_call_in_flight_when_the_server_closes_gets_its_whole_answer_and_nothing_is_logged() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) DEADLINE.toMillis());
            socket.getOutputStream()
                    .write(RawStatelessCall.call(
                            port, 7, "read_text_file", "{\"workdir\":\"docs\",\"path\":\"a.txt\"}"));
            assertTrue(started.await(DEADLINE.toSeconds(), TimeUnit.SECONDS), "the read is running");

            Thread closer = Thread.ofPlatform().start(server::close);
            awaitWaiting(closer);
            assertRefused("a closing server accepts no new connection");
            release.countDown();

            String answer = McpTestClient.readResponse(socket.getInputStream());
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            assertEquals(
                    7,
                    Json.WIRE.readTree(RawStatelessCall.body(answer)).get("id").intValue(),
                    answer);
            assertEquals(
                    "x\n",
                    Json.WIRE
                            .readTree(RawStatelessCall.body(answer))
                            .at("/result/structuredContent/content")
                            .asText(),
                    answer);
            closer.join(DEADLINE);
            assertFalse(closer.isAlive(), "close returns once the call is answered");
            assertEquals(-1, socket.getInputStream().read(), "then the connection ends");
        }
        assertEquals(1, stopped.getCount(), "the call was let finish");
        assertEquals(List.of(), events(), "nothing logged at WARN or above");
    }

    @Test
    void a_request_on_a_kept_connection_while_the_server_closes_is_refused_with_503_and_the_connection_closed()
            throws Exception {
        try (Socket busy = new Socket("127.0.0.1", port);
                Socket idle = new Socket("127.0.0.1", port)) {
            busy.setSoTimeout((int) DEADLINE.toMillis());
            idle.setSoTimeout((int) DEADLINE.toMillis());
            busy.getOutputStream()
                    .write(RawStatelessCall.call(
                            port, 7, "read_text_file", "{\"workdir\":\"docs\",\"path\":\"a.txt\"}"));
            assertTrue(started.await(DEADLINE.toSeconds(), TimeUnit.SECONDS), "the read is running");

            Thread closer = Thread.ofPlatform().start(server::close);
            awaitWaiting(closer);
            idle.getOutputStream().write(RawStatelessCall.call(port, 8, "list_workdirs", "{}"));
            InputStream in = idle.getInputStream();
            String refused = readAll(in);
            assertTrue(refused.startsWith("HTTP/1.1 503"), refused);
            assertTrue(refused.toLowerCase(Locale.ROOT).contains("\r\nconnection: close\r\n"), refused);
            assertTrue(closer.isAlive(), "the call in flight still holds the close");

            release.countDown();
            assertTrue(McpTestClient.readResponse(busy.getInputStream()).startsWith("HTTP/1.1 200"));
            closer.join(DEADLINE);
            assertFalse(closer.isAlive(), "close returns once the call is answered");
        }
        assertEquals(List.of(), events(), "nothing logged at WARN or above");
    }

    @Test
    void a_call_that_outlives_the_grace_is_stopped_and_the_close_returns() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) DEADLINE.toMillis());
            socket.getOutputStream()
                    .write(RawStatelessCall.call(
                            port, 7, "read_text_file", "{\"workdir\":\"docs\",\"path\":\"a.txt\"}"));
            assertTrue(started.await(DEADLINE.toSeconds(), TimeUnit.SECONDS), "the read is running");

            server.closeWithin(Duration.ZERO);

            assertEquals(-1, socket.getInputStream().read(), "no answer: the connection ends with nothing sent");
            assertTrue(stopped.await(DEADLINE.toSeconds(), TimeUnit.SECONDS), "the read was stopped");
        }
        assertEquals(List.of("mcp_shutdown_grace_expired"), events(), "the cut is logged, once");
    }

    /** The closing thread has stopped accepting and is waiting for the call in flight. */
    private static void awaitWaiting(Thread closer) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (closer.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() > deadline || !closer.isAlive()) {
                throw new AssertionError("the close is not waiting: " + closer.getState());
            }
            Thread.onSpinWait();
        }
    }

    private void assertRefused(String message) {
        try (Socket _ = new Socket("127.0.0.1", port)) {
            throw new AssertionError(message);
        } catch (ConnectException expected) {
            // refused
        } catch (IOException e) {
            throw new AssertionError(message, e);
        }
    }

    private List<String> events() {
        return logged.list.stream()
                .map(e -> e.getMessage()
                        + (e.getThrowableProxy() == null
                                ? ""
                                : " " + e.getThrowableProxy().getClassName()))
                .toList();
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        return bytes.toString(StandardCharsets.ISO_8859_1);
    }
}
