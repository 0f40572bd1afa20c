package dev.serverfs.adapters.mcp;

import static dev.serverfs.adapters.mcp.McpTestClient.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.out.AuditLog;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * 2026-07-28 basic/transports §Cancellation: a client cancels a stateless request by closing its connection, and the
 * server stops the call as a session's {@code notifications/cancelled} does (audited {@code CANCELLED}) and sends
 * nothing more for it. The call here is a {@code read_text_file} whose use case blocks until it is interrupted or
 * released, on a real Undertow on port 0; waits are on latches and on the server's probe count, never on a clock.
 */
class DisconnectCancellationIT {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private final Fixtures.RecordingAuditLog audit = new Fixtures.RecordingAuditLog();
    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger interrupted = new AtomicInteger();
    private McpServer server;
    private int port;

    @BeforeEach
    void start() {
        List<McpTool> tools = RawStatelessCall.blockingReadTools(started, release, interrupted::incrementAndGet);
        server = McpServer.start(McpSettings.loopback(0, 64 * 1024, "9.8.7-test"), audit, tools);
        port = server.port();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.close();
    }

    /** A second close does nothing (it used to block for ever in XNIO's worker). */
    @Test
    void closing_the_server_twice_returns() {
        server.close();
        assertTimeoutPreemptively(Duration.ofSeconds(30), server::close);
    }

    @Test
    void a_client_that_closes_its_connection_cancels_its_stateless_read_and_is_sent_nothing() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) DEADLINE.toMillis());
            socket.getOutputStream()
                    .write(RawStatelessCall.call(
                            port, 7, "read_text_file", "{\"workdir\":\"docs\",\"path\":\"big.txt\"}"));
            assertTrue(started.await(DEADLINE.toSeconds(), TimeUnit.SECONDS), "the read is running");

            // The client is done sending and gives up: its side of the connection ends.
            socket.shutdownOutput();

            assertEquals(-1, socket.getInputStream().read(), "no answer: the connection ends with nothing sent");
            assertEquals(1, interrupted.get(), "the read was stopped");
        }
        // The server serves on.
        HttpResponse<String> next = new McpTestClient(port)
                .post(
                        RawStatelessCall.request(8, "tools/call", "list_workdirs", "{}"),
                        Map.of(
                                "MCP-Protocol-Version",
                                "2026-07-28",
                                "Mcp-Method",
                                "tools/call",
                                "Mcp-Name",
                                "list_workdirs"));
        assertEquals(200, next.statusCode(), next.body());
        assertEquals(false, json(next).at("/result/isError").booleanValue(), next.body());
        AuditLog.ToolCall cancelled = awaitEvent("read_text_file");
        assertEquals(Optional.of("CANCELLED"), cancelled.errorCode(), "audited as a cancelled call");
        assertEquals(false, cancelled.success());
    }

    @Test
    void a_client_that_stays_gets_its_answer_and_its_pipelined_next_request_too() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) DEADLINE.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(RawStatelessCall.call(port, 7, "read_text_file", "{\"workdir\":\"docs\",\"path\":\"big.txt\"}"));
            assertTrue(started.await(DEADLINE.toSeconds(), TimeUnit.SECONDS), "the read is running");
            // Probes that find nothing to read leave the call alone.
            assertTrue(awaitProbes(server.disconnectProbes() + 2), "the call was probed");

            // A next request on the same connection before the first is answered (HTTP/1.1 pipelining): the probe
            // that reads its start hands it back, and it is served after the first.
            out.write(RawStatelessCall.call(port, 8, "list_workdirs", "{}"));
            assertTrue(awaitProbes(server.disconnectProbes() + 2), "the call was probed after the next request");
            release.countDown();

            InputStream in = socket.getInputStream();
            String first = McpTestClient.readResponse(in);
            String second = McpTestClient.readResponse(in);
            assertTrue(first.startsWith("HTTP/1.1 200"), first);
            assertEquals(
                    7,
                    Json.WIRE.readTree(RawStatelessCall.body(first)).get("id").intValue(),
                    first);
            assertEquals(
                    "x\n",
                    Json.WIRE
                            .readTree(RawStatelessCall.body(first))
                            .at("/result/structuredContent/content")
                            .asText());
            assertTrue(second.startsWith("HTTP/1.1 200"), second);
            assertEquals(
                    8,
                    Json.WIRE.readTree(RawStatelessCall.body(second)).get("id").intValue(),
                    second);
            assertEquals(0, interrupted.get(), "a client that stays is not cancelled");
        }
    }

    private AuditLog.ToolCall awaitEvent(String tool) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<AuditLog.ToolCall> event =
                    audit.events().stream().filter(e -> e.tool().equals(tool)).findFirst();
            if (event.isPresent()) {
                return event.get();
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("no audit event of " + tool + " within " + DEADLINE);
    }

    private boolean awaitProbes(long count) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (server.disconnectProbes() < count) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }
}
