package dev.serverfs.adapters.mcp;

import static dev.serverfs.adapters.mcp.McpTestClient.json;
import static dev.serverfs.adapters.mcp.McpTestClient.session;
import static dev.serverfs.adapters.mcp.McpTestClient.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 10's transport defects, each reproduced against a real Undertow on port 0 over real sockets: faults that
 * escaped as an empty 500 (item 2), unbounded request-body memory (4a), per-call buffer caches (4b), the descriptor
 * leak of bodies arriving after their headers (5), session eviction by an {@code initialize} flood (6) and 400s
 * without the request id (15); and that a connection whose exchanges end on its I/O thread (issue 15) still
 * serves pipelined requests in order.
 */
class McpTransportHardeningIT {

    private static final long LIMIT = 64 * 1024;
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private final List<McpServer> servers = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        servers.forEach(McpServer::close);
    }

    private static McpSettings settings() {
        return McpSettings.loopback(0, LIMIT, "t");
    }

    private McpTestClient start(McpSettings settings) {
        McpServer server = McpServer.start(
                settings,
                new Fixtures.RecordingAuditLog(),
                List.of(Fixtures.listWorkdirsTool(), new BottomlessTool(), new BlobProbeTool()),
                (workdir, path) -> {
                    throw new IllegalStateException("read failed at /srv/secret-host-path/" + path);
                });
        servers.add(server);
        return new McpTestClient(server.port());
    }

    private static String ping(Object id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}";
    }

    // --- item 2: a fault escaping the dispatcher ------------------------------------------------------------

    @Test
    void a_stack_overflow_in_a_tool_is_a_json_rpc_internal_error_with_the_request_id() {
        McpTestClient client = start(settings());
        String id = client.initialize();

        HttpResponse<String> response = client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":\"deep-1\",\"method\":\"tools/call\",\"params\":{\"name\":\"bottomless\"}}",
                session(id));

        assertEquals(200, response.statusCode(), response.body());
        assertEquals(
                "application/json",
                response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(-32603, json(response).at("/error/code").intValue());
        assertEquals("deep-1", json(response).get("id").textValue());
        assertEquals(200, client.post(ping(2), session(id)).statusCode(), "the server still answers");
    }

    @Test
    void a_runtime_fault_outside_any_tool_is_a_generic_internal_error_too() {
        McpTestClient client = start(settings());
        String id = client.initialize();

        HttpResponse<String> response = client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"resources/read\",\"params\":{\"uri\":\"serverfs://docs/a.txt\"}}",
                session(id));

        assertEquals(200, response.statusCode(), response.body());
        assertEquals(-32603, json(response).at("/error/code").intValue());
        assertEquals("Internal error", json(response).at("/error/message").textValue());
        assertEquals(31, json(response).get("id").intValue());
        assertFalse(response.body().contains("/srv"), response.body());
    }

    // --- item 4a: a global budget for request bodies in flight ---------------------------------------------

    @Test
    void bodies_in_flight_past_the_budget_are_refused_503_until_they_are_released() throws IOException {
        McpTestClient client = start(settings().withCapacity(100, 100_000));
        String id = client.initialize();
        int port = client.uri("/").getPort();
        // Two uploads that stall part-way hold 99,990 of the 100,000 budget bytes: no 45-byte ping fits beside them.
        Socket first = stalledUpload(port, id, 65_000, 60_000);
        Socket second = stalledUpload(port, id, 65_000, 39_990);
        // Only once both hold their bytes: a ping in flight while the second arrives would make *it* the refused one.
        McpServer server = servers.getLast();
        assertEquals(99_990, awaitAtLeast(server::bodyBytesInFlight, 99_990), "the stalled uploads' bytes in flight");

        HttpResponse<String> busy = awaitStatus(client, id, 503);

        assertEquals(-32603, json(busy).at("/error/code").intValue());
        assertTrue(busy.headers().firstValue("Retry-After").isPresent());
        assertEquals(200, client.request("GET", "/healthz", Map.of()).statusCode());
        first.close();
        second.close();
        assertEquals(200, awaitStatus(client, id, 200).statusCode(), "an abandoned upload gives its bytes back");
    }

    // --- item 4b: no buffer cache per (virtual) thread ------------------------------------------------------

    @Test
    void a_burst_of_calls_leaves_the_direct_buffers_flat() {
        McpTestClient client = start(settings());
        String id = client.initialize();
        for (int i = 0; i < 50; i++) {
            client.post(ping(i), session(id));
        }
        long before = directBuffers();

        for (int i = 0; i < 500; i++) {
            assertEquals(200, client.post(ping(i), session(id)).statusCode());
        }

        long grown = directBuffers() - before;
        assertTrue(grown < 64, "500 calls left " + grown + " more direct buffers");
    }

    // --- item 5: no descriptors left behind by bodies that arrive after their headers ----------------------

    @Test
    void bodies_that_arrive_after_their_headers_leave_no_descriptors_behind() throws Exception {
        McpTestClient client = start(settings());
        String id = client.initialize();
        int port = client.uri("/").getPort();
        splitRequests(client, port, id, 20);
        long before = openDescriptors();

        splitRequests(client, port, id, 300);

        long after = awaitAtMost(McpTransportHardeningIT::openDescriptors, before + 16);
        assertTrue(after <= before + 16, "300 split requests left " + (after - before) + " more open descriptors");
    }

    /**
     * Opens {@code n} connections and sends each one's headers; once a complete request sent after them is answered
     * (so the server has long seen the headers and is waiting for the bodies), sends the bodies and reads the answers.
     */
    private void splitRequests(McpTestClient client, int port, String sessionId, int n) throws IOException {
        List<Socket> open = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                Socket socket = new Socket("127.0.0.1", port);
                socket.setTcpNoDelay(true);
                socket.setSoTimeout((int) DEADLINE.toMillis());
                open.add(socket);
                byte[] body = ping(i).getBytes(StandardCharsets.UTF_8);
                OutputStream out = socket.getOutputStream();
                out.write(head(port, sessionId, body.length));
                out.flush();
            }
            assertEquals(
                    200, client.post(ping("\"barrier\""), session(sessionId)).statusCode());
            for (int i = 0; i < n; i++) {
                OutputStream out = open.get(i).getOutputStream();
                out.write(ping(i).getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            for (Socket socket : open) {
                String response = readAll(socket.getInputStream());
                assertEquals(200, status(response), response);
            }
        } finally {
            for (Socket socket : open) {
                socket.close();
            }
        }
    }

    // --- item 6 and issue 24 item 2: an initialize flood neither logs out a live client nor locks new ones out ---

    @Test
    void a_flood_of_never_used_sessions_neither_locks_out_a_new_client_nor_evicts_a_used_session() {
        McpTestClient client = start(settings().withCapacity(20, 1_000_000));
        String live = handshake(client);
        assertEquals(200, client.post(ping(1), session(live)).statusCode());

        // Ten times the table: initialize and notifications/initialized, never a request.
        for (int i = 0; i < 200; i++) {
            HttpResponse<String> response = client.post(McpTestClient.INIT.formatted("2025-11-25"));
            assertEquals(200, response.statusCode(), response.body());
            String flooded = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
            assertEquals(202, client.post(INITIALIZED, session(flooded)).statusCode());
        }

        String newcomer = handshake(client);
        HttpResponse<String> tools =
                client.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", session(newcomer));
        assertEquals(200, tools.statusCode(), tools.body());
        assertTrue(json(tools).at("/result/tools").size() > 0, tools.body());
        assertEquals(200, client.post(ping(3), session(live)).statusCode(), "the used session is still valid");
    }

    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    /** initialize and notifications/initialized, as every client starts; returns the session id. */
    private static String handshake(McpTestClient client) {
        String id = client.initialize();
        assertEquals(202, client.post(INITIALIZED, session(id)).statusCode());
        return id;
    }

    // --- issue 24 item 8: an oversized Content-Length is refused from the headers -------------------------------

    @Test
    void a_declared_length_over_the_limit_is_answered_413_before_any_body_byte_arrives() throws IOException {
        McpTestClient client = start(settings());
        String id = client.initialize();
        int port = client.uri("/").getPort();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
            // Headers only: a server that waits for the body before refusing it never answers this connection.
            socket.getOutputStream().write(head(port, id, 1 << 30, false));
            socket.getOutputStream().flush();

            String response = McpTestClient.readResponse(socket.getInputStream());

            assertEquals(413, status(response), response);
            assertTrue(response.toLowerCase(Locale.ROOT).contains("connection: close"), response);
            assertEquals(
                    -32600,
                    Json.WIRE
                            .readTree(response.substring(response.indexOf("\r\n\r\n") + 4))
                            .at("/error/code")
                            .intValue());
        }
        assertEquals(200, client.post(ping(1), session(id)).statusCode(), "the server still answers");
    }

    // --- issue 24 item 5: slow bodies are cut; connections past the cap are refused at once -------------------

    @Test
    void a_body_arriving_below_the_minimum_rate_is_cut_after_the_grace() throws IOException {
        McpTestClient client = start(settings()
                .withTransport(TransportLimits.defaults()
                        .withBodyDeadlines(Duration.ofSeconds(30), 1000, Duration.ofMillis(500))));
        String id = client.initialize();
        int port = client.uri("/").getPort();
        long started = System.nanoTime();
        // One byte of a 10,000-byte body, then nothing: the slowloris sent one a second for 76 s.
        Socket slow = stalledUpload(port, id, 10_000, 1);
        slow.setSoTimeout((int) DEADLINE.toMillis());

        assertEquals(-1, slow.getInputStream().read(), "the server closed the connection");

        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertTrue(took.compareTo(Duration.ofSeconds(15)) < 0, "cut by the rate, not the 30 s total: " + took);
        assertEquals(0, awaitAtMost(servers.getLast()::bodyBytesInFlight, 0), "its budget bytes are back");
        assertEquals(200, client.post(ping(1), session(id)).statusCode());
    }

    @Test
    void a_body_not_whole_within_the_total_deadline_is_cut_whatever_its_rate() throws IOException {
        McpTestClient client = start(settings()
                .withTransport(TransportLimits.defaults().withBodyDeadlines(Duration.ofSeconds(1), 1, Duration.ZERO)));
        String id = client.initialize();
        int port = client.uri("/").getPort();
        // 100 bytes at once would satisfy a 1 byte/s rate for 100 s: only the total deadline can cut this one.
        Socket slow = stalledUpload(port, id, 10_000, 100);
        slow.setSoTimeout((int) DEADLINE.toMillis());

        assertEquals(-1, slow.getInputStream().read(), "the server closed the connection");
        assertEquals(0, awaitAtMost(servers.getLast()::bodyBytesInFlight, 0));
    }

    @Test
    void a_body_answered_before_it_is_read_cannot_hold_its_connection_past_the_linger() throws IOException {
        McpTestClient client = start(settings());
        String id = client.initialize();
        int port = client.uri("/").getPort();
        Map<String, String> early = Map.of(
                "POST /mcp HTTP/1.1\r\nHost: evil.example:" + port, "421",
                "PUT /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port, "405",
                "DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nMcp-Session-Id: unknown", "404",
                "POST /elsewhere HTTP/1.1\r\nHost: 127.0.0.1:" + port, "404",
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:" + port, "200");
        for (Map.Entry<String, String> request : early.entrySet()) {
            // Answered from the headers; then one body byte of 10,000 and nothing more, as a slowloris trickles it.
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout((int) DEADLINE.toMillis());
                OutputStream out = socket.getOutputStream();
                out.write((request.getKey() + "\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\nx")
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                InputStream in = socket.getInputStream();
                String response = McpTestClient.readResponse(in);
                assertEquals(Integer.parseInt(request.getValue()), status(response), response);

                long started = System.nanoTime();
                assertEquals(-1, in.read(), request.getKey() + ": the server closed the connection");
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                assertTrue(took.compareTo(BodyReceiver.LINGER.plusSeconds(5)) < 0, request.getKey() + " took " + took);
            }
        }
        // A whole body answered early still leaves its connection open for the next request.
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) DEADLINE.toMillis());
            OutputStream out = socket.getOutputStream();
            String body = ping(1);
            out.write(("PUT /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Length: " + body.length()
                            + "\r\n\r\n" + body)
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.write(head(port, id, body.length(), false));
            out.write(body.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertEquals(405, status(McpTestClient.readResponse(socket.getInputStream())));
            assertEquals(200, status(McpTestClient.readResponse(socket.getInputStream())));
        }
    }

    @Test
    void connections_past_the_cap_are_refused_503_at_once_and_a_freed_slot_serves_again() throws IOException {
        McpTestClient client =
                start(settings().withTransport(TransportLimits.defaults().withMaxConnections(8)));
        McpServer server = servers.getLast();
        int port = client.uri("/").getPort();
        List<Socket> idle = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Socket socket = new Socket("127.0.0.1", port);
            sockets.add(socket);
            idle.add(socket);
        }
        assertEquals(8, awaitAtLeast(server::openConnections, 8), "the idle connections are all accepted");

        try (Socket over = new Socket("127.0.0.1", port)) {
            over.setSoTimeout((int) DEADLINE.toMillis());
            String refusal = readAll(over.getInputStream());
            assertEquals(503, status(refusal), refusal);
            assertTrue(refusal.contains("Retry-After: 1"), refusal);
        }

        idle.forEach(socket -> {
            try {
                socket.close();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals(0, awaitAtMost(server::openConnections, 0), "closed connections are no longer counted");
        assertEquals(200, client.request("GET", "/healthz", Map.of()).statusCode());
    }

    // --- issue 24 item 4: unread large answers are held within a budget -------------------------------------

    @Test
    void unread_large_answers_stay_within_the_answer_budget_and_a_normal_client_is_served() throws IOException {
        long answer = Base64Json.wireLength(BlobProbeTool.BYTES);
        // Room for two unread answers of about 11 MiB, as 150 unread 8 MiB downloads were for a 1 GiB heap.
        long budget = 2 * answer + answer / 2;
        McpTestClient client = start(settings().withResponseBudget(budget));
        McpServer server = servers.getLast();
        String id = client.initialize();
        int port = client.uri("/").getPort();
        byte[] call = BLOB_CALL.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 6; i++) {
            // A client that asks and never reads: a small window, so most of the answer stays with the server.
            Socket reader = new Socket();
            sockets.add(reader);
            reader.setReceiveBufferSize(4096);
            reader.connect(new InetSocketAddress("127.0.0.1", port));
            reader.getOutputStream().write(head(port, id, call.length, false));
            reader.getOutputStream().write(call);
            reader.getOutputStream().flush();
        }
        long held = awaitAtLeast(server::responseBytesInFlight, 2 * answer);
        assertTrue(held > answer && held <= budget, "held " + held + " of a budget of " + budget);

        assertEquals(200, client.post(ping(1), session(id)).statusCode(), "small answers are never held back");
        HttpResponse<String> busy = client.post(BLOB_CALL, session(id));
        assertEquals(503, busy.statusCode(), "one more large answer does not fit");
        assertTrue(busy.headers().firstValue("Retry-After").isPresent());
        assertEquals(-32603, json(busy).at("/error/code").intValue());
        assertEquals(7, json(busy).get("id").intValue());
        assertTrue(server.responseBytesInFlight() <= budget);

        for (Socket reader : sockets) {
            reader.close();
        }
        assertEquals(0, awaitAtMost(server::responseBytesInFlight, 0), "abandoned answers give their bytes back");
        HttpResponse<String> served = client.post(BLOB_CALL, session(id));
        assertEquals(200, served.statusCode());
        String blob = json(served).at("/result/content/0/resource/blob").textValue();
        assertEquals(BlobProbeTool.BYTES, Base64.getDecoder().decode(blob).length);
    }

    @Test
    void a_large_answer_not_taken_within_the_response_timeout_is_dropped_with_its_connection() throws IOException {
        McpTestClient client =
                start(settings().withTransport(TransportLimits.defaults().withResponseTimeout(Duration.ofSeconds(1))));
        McpServer server = servers.getLast();
        String id = client.initialize();
        int port = client.uri("/").getPort();
        byte[] call = BLOB_CALL.getBytes(StandardCharsets.UTF_8);
        Socket reader = new Socket();
        sockets.add(reader);
        reader.setReceiveBufferSize(4096);
        reader.connect(new InetSocketAddress("127.0.0.1", port));
        reader.getOutputStream().write(head(port, id, call.length, false));
        reader.getOutputStream().write(call);
        reader.getOutputStream().flush();
        assertTrue(awaitAtLeast(server::responseBytesInFlight, 1) > 0, "the unread answer is held");

        assertEquals(0, awaitAtMost(server::responseBytesInFlight, 0), "dropped after the response timeout");
        // Only the test client's own pooled connection may still be open.
        assertTrue(awaitAtMost(server::openConnections, 1) <= 1, "the reader's connection is closed");
    }

    private static final String BLOB_CALL =
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"blob_probe\"}}";

    // --- item 15: a 400 carries the request id ---------------------------------------------------------------

    @Test
    void errors_about_the_session_carry_the_request_id() {
        McpTestClient client = start(settings());
        String live = client.initialize();

        HttpResponse<String> noSession = client.post(ping(42), Map.of("MCP-Protocol-Version", "2025-11-25"));
        HttpResponse<String> badVersion = client.post(ping("\"v\""), with(session(live), "1999-01-01"));
        HttpResponse<String> unknown = client.post(ping(43), session("no-such-session"));

        assertEquals(400, noSession.statusCode());
        assertEquals(42, json(noSession).get("id").intValue());
        assertEquals(400, badVersion.statusCode());
        assertEquals("v", json(badVersion).get("id").textValue());
        assertEquals(404, unknown.statusCode());
        assertEquals(43, json(unknown).get("id").intValue());
    }

    // --- issue 15: exchanges end on the I/O thread; the connection must still serve what follows ------------------

    @Test
    void pipelined_requests_of_small_and_large_answers_are_answered_in_order_on_one_connection() throws IOException {
        McpTestClient client = start(settings());
        String id = client.initialize();
        int port = client.uri("/").getPort();
        // Every exchange is ended on the I/O thread after the worker wrote its answer (a 20,000-character id makes
        // some answers larger than one buffer); all requests go in one write, so Undertow finds each next request
        // already buffered when the previous one ends.
        List<String> ids = new ArrayList<>();
        ByteArrayOutputStream requests = new ByteArrayOutputStream();
        for (int i = 0; i < 12; i++) {
            String requestId = i % 4 == 3 ? "\"" + "x".repeat(20_000) + i + "\"" : Integer.toString(i);
            ids.add(requestId);
            byte[] body = ping(requestId).getBytes(StandardCharsets.UTF_8);
            requests.writeBytes(head(port, id, body.length, i == 11));
            requests.writeBytes(body);
        }
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) DEADLINE.toMillis());
            socket.getOutputStream().write(requests.toByteArray());
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            for (String requestId : ids) {
                String response = McpTestClient.readResponse(in);
                assertEquals(200, status(response), response.substring(0, Math.min(200, response.length())));
                String body = response.substring(response.indexOf("\r\n\r\n") + 4);
                assertEquals(
                        Json.WIRE.readTree(requestId), Json.WIRE.readTree(body).get("id"));
            }
            assertEquals(-1, in.read(), "nothing after the last answer");
        }
    }

    // --- helpers --------------------------------------------------------------------------------------------

    private static Map<String, String> with(Map<String, String> headers, String version) {
        Map<String, String> copy = new HashMap<>(headers);
        copy.put("MCP-Protocol-Version", version);
        return copy;
    }

    private static byte[] head(int port, String sessionId, int length) {
        return head(port, sessionId, length, true);
    }

    private static byte[] head(int port, String sessionId, int length, boolean close) {
        return ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAccept: " + McpTestClient.ACCEPT
                        + "\r\nContent-Type: application/json\r\nMcp-Session-Id: " + sessionId
                        + "\r\nContent-Length: " + length + (close ? "\r\nConnection: close" : "") + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A connection that declares {@code declared} body bytes and sends only {@code sent} of them, kept open. */
    private Socket stalledUpload(int port, String sessionId, int declared, int sent) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        sockets.add(socket);
        OutputStream out = socket.getOutputStream();
        out.write(head(port, sessionId, declared));
        out.write("x".repeat(sent).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    /** Pings until the answer has {@code status}, within the deadline. */
    private static HttpResponse<String> awaitStatus(McpTestClient client, String sessionId, int status) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        HttpResponse<String> last;
        do {
            last = client.post(ping(9), session(sessionId));
            if (last.statusCode() == status) {
                return last;
            }
            Thread.onSpinWait();
        } while (System.nanoTime() < deadline);
        throw new AssertionError("no " + status + " within " + DEADLINE + "; last: " + last.statusCode());
    }

    /** Polls {@code value} until it is at least {@code bound} or the deadline passes; returns the last value. */
    private static long awaitAtLeast(LongSupplier value, long bound) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        long last = value.getAsLong();
        while (last < bound && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            last = value.getAsLong();
        }
        return last;
    }

    /** Polls {@code value} until it is at most {@code bound} or the deadline passes; returns the last value. */
    private static long awaitAtMost(LongSupplier value, long bound) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        long last = value.getAsLong();
        while (last > bound && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            last = value.getAsLong();
        }
        return last;
    }

    private static long openDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long directBuffers() {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct"))
                .mapToLong(BufferPoolMXBean::getCount)
                .sum();
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream response = new ByteArrayOutputStream();
        in.transferTo(response);
        return response.toString(StandardCharsets.ISO_8859_1);
    }

    /** A download-like tool: one embedded blob of {@link #BYTES} bytes (8 MiB, the default binary limit). */
    static final class BlobProbeTool implements McpTool {
        static final int BYTES = 8 << 20;

        @Override
        public ToolSpec spec() {
            return new ToolSpec("blob_probe", "Test probe.", ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM);
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            return ToolResult.of(Map.of("size", BYTES))
                    .withEmbeddedBlob(new ToolResult.EmbeddedBlob(
                            "serverfs://probe/blob", "application/octet-stream", new byte[BYTES]));
        }
    }

    /** A tool whose work recurses without end: a real {@link StackOverflowError}, as a 3000-level walk gave. */
    static final class BottomlessTool implements McpTool {
        @Override
        public ToolSpec spec() {
            return new ToolSpec("bottomless", "Test probe.", ToolAnnotations.readOnly(), ToolSurface.FILESYSTEM);
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            return ToolResult.of(Map.of("depth", descend(0)));
        }

        private static int descend(int depth) {
            return descend(depth + 1) + 1;
        }
    }
}
