package dev.serverfs.adapters.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase.ResultRead;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.SubmitAgentTaskCommand;
import dev.serverfs.application.port.in.TaskHandle;
import dev.serverfs.application.port.in.TaskView;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskStatus;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Bridge server and client over real AF_UNIX sockets, with the real Agent services behind the server. */
class BridgeServerIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int NOBODY = 65534;

    @TempDir
    Path tmp;

    private final AgentFixture agent = new AgentFixture();
    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private Path socket;

    @BeforeEach
    void paths() {
        socket = tmp.resolve("run").resolve("bridge.sock");
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : cleanup.reversed()) {
            c.close();
        }
        agent.close();
    }

    private BridgeServer start(Optional<Integer> uid, Optional<Integer> gid) {
        BridgeServer server = BridgeServer.start(BridgeServer.Settings.of(socket, uid, gid), agent.useCases);
        cleanup.add(server);
        return server;
    }

    private BridgeServer start() {
        return start(Optional.empty(), Optional.empty());
    }

    private BridgeClient client() {
        return new BridgeClient(socket, TIMEOUT);
    }

    private static SubmitAgentTaskCommand command(String key) {
        return SubmitAgentTaskCommand.parse(
                "fake",
                "docs",
                "fix the build",
                "src",
                "workspace-write",
                Optional.empty(),
                Optional.of("c"),
                Optional.of(key));
    }

    @Test
    void every_method_round_trips_between_client_and_server() throws Exception {
        start();
        BridgeClient client = client();
        agent.interactiveTurn();

        assertEquals(agent.useCases.listRuntimes().listRuntimes(), client.listRuntimes());
        TaskHandle submitted = client.submit(command("k1")).handle();
        assertEquals(TaskStatus.QUEUED, submitted.status());
        TaskId id = submitted.taskId();
        assertEquals(id, client.submit(command("k1")).handle().taskId(), "the same key replays the same task");
        assertEquals(
                ErrorCode.AGENT_IDEMPOTENCY_CONFLICT,
                assertThrows(
                                ServerFsException.class,
                                () -> client.submit(SubmitAgentTaskCommand.parse(
                                        "fake",
                                        "docs",
                                        "another objective",
                                        "src",
                                        "workspace-write",
                                        Optional.empty(),
                                        Optional.of("c"),
                                        Optional.of("k1"))))
                        .code());

        agent.awaitRequested(id, "approval.requested");
        TaskView waiting = client.get(id);
        assertEquals(TaskStatus.WAITING_FOR_APPROVAL, waiting.status());
        RequestId approval = waiting.pendingRequest().orElseThrow().id();
        assertEquals(
                List.of("task.started", "approval.requested"),
                client.readEvents(id, 0, 100).events().stream()
                        .map(e -> e.eventType())
                        .toList());
        assertEquals(
                ErrorCode.INVALID_QUESTION_ANSWER,
                assertThrows(
                                ServerFsException.class,
                                () -> client.answer(
                                        id,
                                        approval,
                                        List.of(new QuestionAnswer("q1", List.of("a"), Optional.empty()))))
                        .code(),
                "an answer to an approval is refused by the Bridge's service");
        client.respond(id, approval, new ApprovalResolution(ApprovalDecision.APPROVE_ONCE, Optional.empty()));
        assertEquals(
                ErrorCode.REQUEST_ALREADY_RESOLVED,
                assertThrows(
                                ServerFsException.class,
                                () -> client.respond(
                                        id, approval, new ApprovalResolution(ApprovalDecision.DENY, Optional.empty())))
                        .code());

        RequestId question = agent.awaitRequested(id, "question.requested")
                .pendingRequestId()
                .orElseThrow();
        client.answer(id, question, List.of(new QuestionAnswer("q1", List.of("a"), Optional.empty())));
        agent.await(id, t -> t.status() == TaskStatus.RUNNING);
        assertEquals(id, client.send(id, "and the linter").taskId());

        agent.await(id, t -> t.status() == TaskStatus.SUCCEEDED);
        assertTrue(agent.awaitDrained(id));
        assertTrue(client.get(id).result().orElseThrow().retrievable());
        StringBuilder text = new StringBuilder();
        long offset = 0;
        ResultRead chunk;
        do {
            chunk = client.readResult(id, offset, 7);
            text.append(chunk.chunk().text());
            offset = chunk.chunk().nextOffsetBytes();
        } while (!chunk.chunk().eof());
        assertEquals(AgentFixture.RESULT, text.toString(), "UTF-8-safe chunks reproduce the spooled result");
        assertEquals(TaskStatus.SUCCEEDED, client.cancel(id).status(), "cancel of a terminal task is repeat-safe");
        assertEquals(
                ErrorCode.AGENT_TASK_NOT_FOUND,
                assertThrows(ServerFsException.class, () -> client.get(new TaskId("agt_" + "e".repeat(24))))
                        .code());
        assertEquals(1, agent.fake.turns.get(), "one provider turn for the replayed submission");
    }

    @Test
    void cancel_over_the_socket_persists_cancelled_before_it_returns() throws Exception {
        start();
        agent.interactiveTurn();
        BridgeClient client = client();
        TaskId id = client.submit(command("k2")).handle().taskId();
        agent.awaitRequested(id, "approval.requested");
        assertEquals(TaskStatus.CANCELLED, client.cancel(id).status());
        assertEquals(TaskStatus.CANCELLED, agent.task(id).status());
    }

    @Test
    void socket_and_directory_get_private_modes() throws Exception {
        start();
        assertEquals("rwx------", mode(socket.getParent()));
        assertEquals("rw-------", mode(socket));
    }

    @Test
    void protocol_errors_are_answered_on_the_same_connection() throws Exception {
        start();
        try (Raw raw = Raw.connect(socket)) {
            assertEquals(
                    "{\"request_id\":null,\"ok\":false,\"error\":{\"code\":\"INVALID_REQUEST\",\"message\":\"invalid JSON\"}}",
                    raw.exchange("this is not json"));
            assertEquals(
                    "{\"request_id\":\"r2\",\"ok\":false,\"error\":{\"code\":\"PROTOCOL_VERSION_UNSUPPORTED\",\"message\":\"protocol_version must be 1\"}}",
                    raw.exchange(
                            "{\"protocol_version\":2,\"request_id\":\"r2\",\"method\":\"runtime.list\",\"params\":{}}"));
            assertEquals(
                    "{\"request_id\":\"r3\",\"ok\":false,\"error\":{\"code\":\"INVALID_REQUEST\",\"message\":\"protocol_version is an integer\"}}",
                    raw.exchange(
                            "{\"protocol_version\":true,\"request_id\":\"r3\",\"method\":\"runtime.list\",\"params\":{}}"));
            assertEquals(
                    "{\"request_id\":\"r4\",\"ok\":false,\"error\":{\"code\":\"METHOD_NOT_FOUND\",\"message\":\"unknown method\"}}",
                    raw.exchange(
                            "{\"protocol_version\":1,\"request_id\":\"r4\",\"method\":\"task.list\",\"params\":{}}"));
            assertEquals(
                    "{\"request_id\":\"r5\",\"ok\":false,\"error\":{\"code\":\"INVALID_REQUEST\",\"message\":\"unknown param shell for task.submit\"}}",
                    raw.exchange("{\"protocol_version\":1,\"request_id\":\"r5\",\"method\":\"task.submit\",\"params\":"
                            + "{\"runtime\":\"fake\",\"workdir\":\"docs\",\"path\":\"\",\"profile\":\"workspace-write\","
                            + "\"prompt\":\"p\",\"shell\":\"rm -rf /\"}}"));
            assertEquals(
                    "{\"request_id\":\"r6\",\"ok\":false,\"error\":{\"code\":\"INVALID_REQUEST\",\"message\":\"limit is an integer\"}}",
                    raw.exchange("{\"protocol_version\":1,\"request_id\":\"r6\",\"method\":\"task.events\",\"params\":"
                            + "{\"task_id\":\"agt_000000000000000000000001\",\"limit\":\"10\"}}"));
            assertTrue(raw.exchange(
                            "{\"protocol_version\":1,\"request_id\":\"r7\",\"method\":\"runtime.list\",\"params\":{}}")
                    .startsWith("{\"request_id\":\"r7\",\"ok\":true,\"result\":{\"runtimes\":["));
        }
        assertEquals(0, agent.fake.turns.get(), "nothing was submitted");
    }

    @Test
    void an_oversized_line_is_refused_then_the_connection_closed() throws Exception {
        start();
        try (Raw raw = Raw.connect(socket)) {
            byte[] big = new byte[BridgeCodec.MAX_LINE_BYTES + 1];
            java.util.Arrays.fill(big, (byte) 'x');
            // The server stops reading at the limit: write from another thread, which may see a broken pipe.
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    LineReader.writeFully(raw.channel, big);
                } catch (IOException expected) {
                    // The server closed the connection.
                }
            });
            assertEquals(
                    Optional.of(
                            "{\"request_id\":null,\"ok\":false,\"error\":{\"code\":\"REQUEST_TOO_LARGE\",\"message\":\"the request exceeds 1048576 bytes\"}}"),
                    raw.line());
            assertEquals(Optional.empty(), raw.line(), "then closed");
            writer.join(TIMEOUT);
        }
        // A line of exactly the limit is read whole (and refused as JSON, not as too large).
        try (Raw raw = Raw.connect(socket)) {
            String exact = "\"" + "x".repeat(BridgeCodec.MAX_LINE_BYTES - 2) + "\"";
            assertTrue(raw.exchange(exact).contains("\"INVALID_REQUEST\""));
        }
    }

    @Test
    void a_peer_with_another_uid_is_refused_and_nothing_is_dispatched() {
        start(Optional.of(Posix.uid() + 4242), Optional.empty());
        ServerFsException refused = assertThrows(ServerFsException.class, () -> client().submit(command("k3")));
        assertEquals(ErrorCode.PEER_NOT_AUTHORIZED, refused.code());
        assertEquals(0, agent.fake.turns.get());
        assertEquals(0, agent.leases.acquisitions.get());
        assertEquals(
                ErrorCode.PEER_NOT_AUTHORIZED,
                assertThrows(ServerFsException.class, client()::listRuntimes).code());
    }

    @Test
    void the_stats_count_answered_requests_refused_peers_and_open_connections() throws Exception {
        BridgeServer server = start();
        assertEquals(0, server.stats().requests());
        client().listRuntimes();
        client().listRuntimes();
        assertEquals(2, server.stats().requests());
        assertEquals(0, server.stats().refusals(BridgeStats.Refusal.PEER_NOT_AUTHORIZED));
        try (Raw _ = Raw.connect(socket)) {
            Instant deadline = Instant.now().plus(TIMEOUT);
            while (server.stats().openConnections() != 1 && Instant.now().isBefore(deadline)) {
                // Bounded polling: the acceptor thread admits the connection on its own time.
                LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
            }
            assertEquals(1, server.stats().openConnections(), "the idle connection counted open");
        }
        server.close();
        BridgeServer refusing = start(Optional.of(Posix.uid() + 4242), Optional.empty());
        assertThrows(ServerFsException.class, client()::listRuntimes);
        assertEquals(1, refusing.stats().refusals(BridgeStats.Refusal.PEER_NOT_AUTHORIZED));
        assertEquals(0, refusing.stats().requests(), "nothing dispatched");
        assertEquals(0, refusing.stats().openConnections());
    }

    @Test
    void a_refused_peer_is_answered_and_closed_at_once_without_sending_anything() throws Exception {
        start(Optional.of(Posix.uid() + 4242), Optional.empty());
        // Issue 24 item 6: a refused peer used to hold a connection slot until it sent a line or 30 s passed.
        try (Raw silent = Raw.connect(socket)) {
            Optional<String> answer = within(Duration.ofSeconds(3), silent::line);
            assertEquals(
                    Optional.of("{\"request_id\":null,\"ok\":false,\"error\":{\"code\":\"PEER_NOT_AUTHORIZED\","
                            + "\"message\":\"peer is not authorized\"}}"),
                    answer);
            assertEquals(Optional.empty(), within(Duration.ofSeconds(3), silent::line), "then closed");
        }
        assertEquals(0, agent.fake.turns.get());
    }

    @Test
    void a_connection_that_sends_no_complete_line_is_closed_within_seconds() throws Exception {
        start();
        try (Raw slow = Raw.connect(socket)) {
            slow.channel.write(ByteBuffer.wrap("{\"protocol_version\":1,".getBytes(StandardCharsets.UTF_8)));
            // The shipped request timeout is 5 s (it was a 30 s idle timeout).
            assertEquals(Optional.empty(), within(Duration.ofSeconds(15), slow::line), "closed, nothing answered");
        }
    }

    @Test
    void forty_idle_peers_do_not_delay_a_real_call() throws Exception {
        start();
        List<Raw> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 40; i++) {
                idle.add(Raw.connect(socket));
            }
            // Well below the 5 s request timeout that would free the 32 places anyway: only making room helps.
            BridgeClient impatient = new BridgeClient(socket, Duration.ofSeconds(3));
            assertEquals(agent.useCases.listRuntimes().listRuntimes(), impatient.listRuntimes());
            assertEquals(agent.useCases.listRuntimes().listRuntimes(), impatient.listRuntimes());
        } finally {
            for (Raw r : idle) {
                r.close();
            }
        }
    }

    @Test
    void over_the_connection_cap_a_new_peer_closes_the_longest_idle_one_and_a_burst_of_real_calls_all_pass()
            throws Exception {
        // Four places and a request timeout far longer than the test: only making room can let a call in.
        BridgeServer server = BridgeServer.start(
                new BridgeServer.Settings(
                        socket, Optional.empty(), Optional.empty(), 4, Duration.ofSeconds(60), Duration.ofSeconds(30)),
                agent.useCases);
        cleanup.add(server);
        List<Raw> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                idle.add(Raw.connect(socket));
            }
            BridgeClient impatient = new BridgeClient(socket, Duration.ofSeconds(8));
            assertEquals(agent.useCases.listRuntimes().listRuntimes(), impatient.listRuntimes());
            assertEquals(
                    Optional.empty(),
                    within(Duration.ofSeconds(8), idle.get(0)::line),
                    "the longest idle peer was closed to make room");
            // Twenty concurrent calls through four places: each sends its request at once, so none is taken for
            // idle and closed; they wait for each other's answers instead.
            List<java.util.concurrent.Future<?>> calls = new ArrayList<>();
            try (var pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 20; i++) {
                    calls.add(pool.submit(impatient::listRuntimes));
                }
                for (var call : calls) {
                    assertEquals(agent.useCases.listRuntimes().listRuntimes(), call.get(10, TimeUnit.SECONDS));
                }
            }
        } finally {
            for (Raw r : idle) {
                r.close();
            }
        }
    }

    /** {@code read} on a virtual thread, bounded by {@code limit} (the test fails instead of hanging). */
    private static Optional<String> within(Duration limit, IoCall<Optional<String>> read) throws Exception {
        java.util.concurrent.CompletableFuture<Optional<String>> result =
                new java.util.concurrent.CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                result.complete(read.call());
            } catch (IOException e) {
                result.complete(Optional.empty()); // a reset is a close too
            }
        });
        return result.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    private interface IoCall<T> {
        T call() throws IOException;
    }

    @Test
    void a_real_connection_from_another_uid_is_checked_against_the_allowed_peer() throws Exception {
        assumeTrue(Posix.uid() == 0, "needs root to run a client under another uid");
        Path setpriv = Path.of("/usr/bin/setpriv");
        Path python = Path.of("/usr/bin/python3");
        assumeTrue(Files.isExecutable(setpriv) && Files.isExecutable(python), "needs setpriv and python3");
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x"));
        Path dir = Files.createDirectory(socket.getParent());
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
        Files.setAttribute(dir, "unix:gid", NOBODY);
        Path script = tmp.resolve("client.py");
        Files.writeString(script, """
                import socket, sys
                s = socket.socket(socket.AF_UNIX)
                s.connect(sys.argv[1])
                try:
                    s.sendall(sys.argv[2].encode() + b"\\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass  # refused peers are closed at once; the answer is still there to read
                sys.stdout.write(s.makefile("rb").readline().decode())
                """);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
        String request = "{\"protocol_version\":1,\"request_id\":\"py1\",\"method\":\"runtime.list\",\"params\":{}}";

        // Allowed: uid 0 with the shared gid 65534; the peer is uid 65534 in that group → refused.
        BridgeServer mine = start(Optional.of(0), Optional.of(NOBODY));
        assertEquals("rw-rw----", mode(socket));
        assertEquals(NOBODY, (int) Files.getAttribute(socket, "unix:gid", LinkOption.NOFOLLOW_LINKS));
        assertEquals(
                "{\"request_id\":null,\"ok\":false,\"error\":{\"code\":\"PEER_NOT_AUTHORIZED\",\"message\":\"peer is not authorized\"}}\n",
                runAsNobody(setpriv, python, script, request));
        mine.close();

        // Allowed: exactly uid/gid 65534 → served.
        start(Optional.of(NOBODY), Optional.of(NOBODY));
        assertTrue(runAsNobody(setpriv, python, script, request)
                .startsWith("{\"request_id\":\"py1\",\"ok\":true,\"result\":{\"runtimes\":["));
        assertEquals(0, agent.fake.turns.get());
    }

    private String runAsNobody(Path setpriv, Path python, Path script, String request) throws Exception {
        Process p = new ProcessBuilder(
                        setpriv.toString(),
                        "--reuid",
                        Integer.toString(NOBODY),
                        "--regid",
                        Integer.toString(NOBODY),
                        "--clear-groups",
                        python.toString(),
                        script.toString(),
                        socket.toString(),
                        request)
                .redirectErrorStream(true)
                .start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), out);
            return out;
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void a_live_socket_is_in_use_and_keeps_serving() {
        start();
        assertEquals(
                ErrorCode.SOCKET_PATH_IN_USE,
                assertThrows(ServerFsException.class, this::start).code());
        assertFalse(client().listRuntimes().isEmpty(), "the first Bridge still answers");
    }

    @Test
    void a_stale_socket_of_ours_is_replaced() throws Exception {
        Files.createDirectory(
                socket.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (ServerSocketChannel old = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            old.bind(UnixDomainSocketAddress.of(socket));
        }
        assertTrue(Files.exists(socket, LinkOption.NOFOLLOW_LINKS), "closing a listener leaves its socket file");
        start();
        assertFalse(client().listRuntimes().isEmpty());
    }

    @Test
    void something_else_at_the_socket_path_is_in_use_and_left_alone() throws Exception {
        Files.createDirectory(
                socket.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.writeString(socket, "keep me");
        assertEquals(
                ErrorCode.SOCKET_PATH_IN_USE,
                assertThrows(ServerFsException.class, this::start).code());
        assertEquals("keep me", Files.readString(socket));
    }

    @Test
    void unsafe_socket_directories_are_refused() throws Exception {
        Path dir = Files.createDirectory(socket.getParent());
        for (String mode : List.of("rwxrwx---", "rwxr-x-wx")) {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(mode));
            assertEquals(
                    ErrorCode.SOCKET_DIRECTORY_UNSAFE,
                    assertThrows(ServerFsException.class, this::start).code(),
                    mode);
        }
        Files.delete(dir);
        Path real = Files.createDirectory(
                tmp.resolve("real"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.createSymbolicLink(dir, real);
        assertEquals(
                ErrorCode.SOCKET_DIRECTORY_UNSAFE,
                assertThrows(ServerFsException.class, this::start).code(),
                "a symlinked directory");
        if (Posix.uid() == 0) {
            Files.delete(dir);
            Files.createDirectory(
                    dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.setAttribute(dir, "unix:uid", NOBODY);
            assertEquals(
                    ErrorCode.SOCKET_DIRECTORY_UNSAFE,
                    assertThrows(ServerFsException.class, this::start).code(),
                    "a directory of another owner");
        }
        assertFalse(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void closing_the_server_removes_its_socket_and_the_client_reports_unavailable() {
        BridgeServer server = start();
        server.close();
        assertFalse(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));
        ServerFsException down = assertThrows(ServerFsException.class, client()::listRuntimes);
        assertEquals(ErrorCode.AGENT_BRIDGE_UNAVAILABLE, down.code());
        assertEquals("Agent Bridge is unavailable", down.getMessage());
    }

    @Test
    void a_garbage_or_truncated_answer_is_a_protocol_error() throws Exception {
        fakeBridge(channel -> write(channel, "hello\n"));
        assertEquals(
                ErrorCode.AGENT_BRIDGE_PROTOCOL_ERROR,
                assertThrows(ServerFsException.class, client()::listRuntimes).code());
        fakeBridge(channel -> write(channel, "{\"request_id\":"));
        assertEquals(
                ErrorCode.AGENT_BRIDGE_PROTOCOL_ERROR,
                assertThrows(ServerFsException.class, client()::listRuntimes).code());
    }

    @Test
    void a_bridge_closing_without_an_answer_is_unavailable() throws Exception {
        fakeBridge(channel -> {});
        assertEquals(
                ErrorCode.AGENT_BRIDGE_UNAVAILABLE,
                assertThrows(ServerFsException.class, client()::listRuntimes).code());
    }

    @Test
    void a_bridge_that_never_answers_times_out_as_unavailable() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        cleanup.add(release::countDown);
        fakeBridge(channel -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long started = System.nanoTime();
        BridgeClient impatient = new BridgeClient(socket, Duration.ofMillis(300));
        assertEquals(
                ErrorCode.AGENT_BRIDGE_UNAVAILABLE,
                assertThrows(ServerFsException.class, impatient::listRuntimes).code());
        assertTrue(System.nanoTime() - started < TIMEOUT.toNanos(), "bounded by the client timeout");
    }

    /** A listener at the socket path that hands each connection to {@code behaviour}, then closes it. */
    private void fakeBridge(Consumer<SocketChannel> behaviour) throws IOException {
        Files.createDirectories(socket.getParent());
        Files.deleteIfExists(socket);
        ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        listener.bind(UnixDomainSocketAddress.of(socket));
        cleanup.add(listener);
        Thread.ofVirtual().start(() -> {
            try (SocketChannel channel = listener.accept()) {
                new LineReader(channel, BridgeCodec.MAX_LINE_BYTES).next();
                behaviour.accept(channel);
            } catch (IOException ignored) {
                // The test is over.
            }
        });
    }

    private static void write(SocketChannel channel, String text) {
        try {
            LineReader.writeFully(channel, text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }

    /** A raw protocol connection for lines the client would never send. */
    private static final class Raw implements AutoCloseable {
        final SocketChannel channel;
        private final LineReader lines;

        private Raw(SocketChannel channel) {
            this.channel = channel;
            this.lines = new LineReader(channel, 2 * BridgeCodec.MAX_LINE_BYTES);
        }

        static Raw connect(Path socket) throws IOException {
            return new Raw(SocketChannel.open(UnixDomainSocketAddress.of(socket)));
        }

        String exchange(String line) throws IOException {
            channel.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
            return line().orElseThrow();
        }

        Optional<String> line() throws IOException {
            return lines.next().map(b -> new String(b, StandardCharsets.UTF_8));
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
