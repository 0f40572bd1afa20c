package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded soak of a real {@code serve} child (issue 10, "Done when"): N sessions call a mix of tools for M seconds
 * on loopback with hostile requests mixed in (bodies sent slowly, bodies over the limit, pathological globs, a
 * directory chain deeper than the walk limit). It asserts that no answer is a 5xx other than a JSON 503, no call
 * outlives its deadline, the child's RSS and open descriptors stay flat after the warm-up (both printed), nothing
 * logs an internal error, and every session is still valid at the end.
 *
 * <p>{@code ./test.sh} runs the short version (8 sessions, 15 s after a 5 s warm-up). {@code tools/soak/soak.sh} runs it longer through
 * the system properties {@code serverfs.soak.sessions}, {@code serverfs.soak.seconds} and {@code
 * serverfs.soak.warmup}.
 */
class SoakIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SESSIONS = Integer.getInteger("serverfs.soak.sessions", 8);
    private static final Duration RUN = Duration.ofSeconds(Integer.getInteger("serverfs.soak.seconds", 15));
    private static final Duration WARMUP = Duration.ofSeconds(Integer.getInteger("serverfs.soak.warmup", 5));
    private static final int SEARCH_TIMEOUT_SECONDS = 5;
    /** A call's deadline: the search deadline plus generous slack for a shared, loaded CI host. */
    private static final Duration CALL_DEADLINE = Duration.ofSeconds(SEARCH_TIMEOUT_SECONDS + 40);

    private static final long MAX_BODY = 4L * 1024 * 1024;

    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .build();
    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    private final AtomicLong calls = new AtomicLong();
    private URI url;
    private int port;

    @Test
    void sessions_survive_a_mixed_and_hostile_load_with_memory_and_descriptors_flat(@TempDir Path dir)
            throws Exception {
        Path root = Files.createDirectories(dir.resolve("soak"));
        Files.writeString(root.resolve("readme.md"), "needle\n".repeat(200));
        Path repo = Files.createDirectories(root.resolve("repo"));
        Files.writeString(repo.resolve(".gitignore"), "*a*a*a*a*a*b\n");
        for (int i = 0; i < 40; i++) {
            Files.writeString(repo.resolve("a".repeat(60) + i + ".txt"), "needle " + i + "\n");
        }
        Path deep = root.resolve("deep");
        for (int i = 0; i < 400; i++) {
            deep = deep.resolve("d");
        }
        Files.createDirectories(deep);
        Files.writeString(deep.resolve("bottom.txt"), "needle at the bottom\n");
        Files.createDirectories(root.resolve("scratch"));

        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_LOG_LEVEL", "ERROR");
        env.put("SERVERFS_SEARCH_TIMEOUT_SECONDS", Integer.toString(SEARCH_TIMEOUT_SECONDS));
        env.put("WORKDIR_01_ALIAS", "wd");
        env.put("WORKDIR_01_PATH", root.toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        // A heap and direct-memory cap as a deployment would set, so RSS reflects what the server keeps.
        env.put("JAVA_TOOL_OPTIONS", "-Xmx256m -XX:MaxDirectMemorySize=64m");
        try (ServeProcess serve = ServeProcess.start(env)) {
            url = URI.create(serve.awaitUrl(Duration.ofSeconds(60)));
            port = url.getPort();
            List<String> sessions = new ArrayList<>();
            for (int i = 0; i < SESSIONS; i++) {
                sessions.add(initialize());
            }
            long started = System.nanoTime();
            long warmEnd = started + WARMUP.toNanos();
            long end = warmEnd + RUN.toNanos();
            ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < SESSIONS; i++) {
                String session = sessions.get(i);
                int worker = i;
                running.add(workers.submit(() -> work(session, worker, end)));
            }
            awaitNanos(warmEnd);
            long[] warm = usage(serve.pid());
            awaitNanos(end);
            for (Future<?> f : running) {
                f.get(CALL_DEADLINE.toSeconds() + 30, TimeUnit.SECONDS);
            }
            workers.shutdown();
            long[] after = usage(serve.pid());
            System.out.printf(
                    "soak: %d sessions, %d s after %d s warm-up, %d calls; RSS %d -> %d KiB, descriptors %d -> %d%n",
                    SESSIONS, RUN.toSeconds(), WARMUP.toSeconds(), calls.get(), warm[0], after[0], warm[1], after[1]);

            assertTrue(violations.isEmpty(), () -> violations.size() + " violations, first: " + violations.peek());
            for (String session : sessions) {
                HttpResponse<String> list = post(request("tools/list", JSON.createObjectNode()), session);
                assertEquals(200, list.statusCode(), "a live session was dropped: " + list.body());
            }
            assertTrue(
                    after[0] <= warm[0] * 3 / 2 + 64 * 1024,
                    "RSS grew after warm-up: " + warm[0] + " -> " + after[0] + " KiB");
            assertTrue(after[1] <= warm[1] + 32, "descriptors grew after warm-up: " + warm[1] + " -> " + after[1]);
            assertTrue(
                    serve.stderr().stream().noneMatch(l -> l.contains("internal_error") || l.contains("Exception")),
                    () -> String.join("\n", serve.stderr()));
        }
    }

    /** One session's loop: mostly ordinary calls, one in five hostile. */
    private void work(String session, int worker, long end) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int n = 0;
        while (System.nanoTime() < end) {
            n++;
            try {
                switch (random.nextInt(20)) {
                    case 0 ->
                        tool(
                                session,
                                "search_text",
                                Map.of("workdir", "wd", "query", "needle", "glob", "*?*?*?*?*?*?*?*?z"));
                    case 1 -> tool(session, "find_files", Map.of("workdir", "wd", "pattern", "*.txt", "path", "deep"));
                    case 2 -> tool(session, "search_text", Map.of("workdir", "wd", "query", "needle", "path", "repo"));
                    case 3 -> slowBody(session);
                    case 4 -> {
                        if (random.nextInt(10) == 0) {
                            hugeBody(session);
                        } else {
                            tool(session, "list_directory", Map.of("workdir", "wd", "offset", 2_147_483_648L));
                        }
                    }
                    case 5, 6 -> {
                        String path = "scratch/w" + worker + "-" + n + ".txt";
                        JsonNode created = tool(
                                session,
                                "create_text_file",
                                Map.of("workdir", "wd", "path", path, "content", "soak " + n + "\n"));
                        String revision =
                                created.at("/structuredContent/revision").asText();
                        tool(
                                session,
                                "delete_file",
                                Map.of("workdir", "wd", "path", path, "expected_revision", revision));
                    }
                    case 7, 8, 9 ->
                        tool(session, "read_text_file", Map.of("workdir", "wd", "path", "readme.md", "max_lines", 50));
                    case 10, 11 -> tool(session, "stat_file", Map.of("workdir", "wd", "path", "readme.md"));
                    case 12 -> rpc(session, "ping");
                    default -> tool(session, "list_directory", Map.of("workdir", "wd", "path", "repo", "limit", 20));
                }
            } catch (Exception e) {
                violations.add(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
    }

    private JsonNode tool(String session, String name, Map<String, ?> arguments) throws Exception {
        ObjectNode call = request("tools/call", toolParams(name, arguments));
        HttpResponse<String> response = timed(() -> post(call, session), name);
        JsonNode body = jsonAnswer(response, name);
        if (body != null && !body.has("result")) {
            violations.add(name + " answered a JSON-RPC error: " + response.body());
        }
        return body == null ? JSON.createObjectNode() : body.path("result");
    }

    private void rpc(String session, String method) throws Exception {
        jsonAnswer(timed(() -> post(request(method, JSON.createObjectNode()), session), method), method);
    }

    /** A valid call whose body arrives in pieces after the headers (issue 10 §4b, §5). */
    private void slowBody(String session) throws IOException {
        byte[] body = request("tools/call", toolParams("stat_file", Map.of("workdir", "wd", "path", "readme.md")))
                .toString()
                .getBytes(StandardCharsets.UTF_8);
        String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAccept: application/json, "
                + "text/event-stream\r\nContent-Type: application/json\r\nMcp-Session-Id: " + session
                + "\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: " + body.length
                + "\r\nConnection: close\r\n\r\n";
        long started = System.nanoTime();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) CALL_DEADLINE.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            int step = Math.max(1, body.length / 4);
            for (int offset = 0; offset < body.length; offset += step) {
                // The behaviour under test is a slow client: pace the pieces, do not wait for anything.
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(30));
                out.write(body, offset, Math.min(step, body.length - offset));
                out.flush();
            }
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            in.transferTo(response);
            String raw = response.toString(StandardCharsets.UTF_8);
            calls.incrementAndGet();
            if (!raw.startsWith("HTTP/1.1 200") || !raw.contains("\"result\"")) {
                violations.add("slow body: " + raw.lines().findFirst().orElse(""));
            }
        }
        checkDeadline(started, "slow body");
    }

    /** A body over the limit: refused 413 (or 503 while the budget is spent), never buffered whole. */
    private void hugeBody(String session) throws Exception {
        byte[] body = new byte[(int) MAX_BODY + 1024 * 1024];
        Arrays.fill(body, (byte) ' ');
        HttpRequest request = builder(session)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        HttpResponse<String> response;
        try {
            response = timed(() -> http.send(request, HttpResponse.BodyHandlers.ofString()), "huge body");
        } catch (IOException refusedMidUpload) {
            // The server may answer 413 and close before the client finished sending: that is a refusal too.
            return;
        }
        if (response.statusCode() != 413 && response.statusCode() != 503) {
            violations.add("huge body answered " + response.statusCode());
        }
        jsonAnswer(response, "huge body");
    }

    /** The parsed JSON-RPC answer; a 5xx other than a JSON 503, or a non-JSON body, is a violation. */
    private JsonNode jsonAnswer(HttpResponse<String> response, String what) {
        calls.incrementAndGet();
        if (response.statusCode() >= 500 && response.statusCode() != 503) {
            violations.add(what + ": HTTP " + response.statusCode() + " " + response.body());
        }
        if (response.body().isEmpty()) {
            if (response.statusCode() >= 500) {
                violations.add(what + ": empty " + response.statusCode());
            }
            return null;
        }
        try {
            JsonNode body = JSON.readTree(response.body());
            if (body.path("error").path("code").asInt() == -32603) {
                violations.add(what + ": internal error " + response.body());
            }
            return body;
        } catch (IOException e) {
            violations.add(what + ": not JSON (HTTP " + response.statusCode() + ")");
            return null;
        }
    }

    private interface Call<T> {
        T run() throws Exception;
    }

    private <T> T timed(Call<T> call, String what) throws Exception {
        long started = System.nanoTime();
        T result = call.run();
        checkDeadline(started, what);
        return result;
    }

    private void checkDeadline(long started, String what) {
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        if (millis > CALL_DEADLINE.toMillis()) {
            violations.add(what + " took " + millis + " ms, past its " + CALL_DEADLINE.toSeconds() + " s deadline");
        }
    }

    private String initialize() throws Exception {
        HttpResponse<String> response =
                post(request("initialize", McpTestClient.initializeParams("2025-11-25", "soak")), null);
        assertEquals(200, response.statusCode(), response.body());
        return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private ObjectNode toolParams(String name, Map<String, ?> arguments) {
        ObjectNode params = JSON.createObjectNode().put("name", name);
        params.set("arguments", JSON.valueToTree(arguments));
        return params;
    }

    private ObjectNode request(String method, ObjectNode params) {
        return McpTestClient.request(ids.incrementAndGet(), method, params);
    }

    private HttpRequest.Builder builder(String session) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(url)
                .timeout(CALL_DEADLINE)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream");
        if (session != null) {
            builder.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
        }
        return builder;
    }

    private HttpResponse<String> post(ObjectNode body, String session) throws IOException, InterruptedException {
        return http.send(
                builder(session)
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** RSS in KiB and the number of open descriptors of {@code pid}, from {@code /proc}. */
    private static long[] usage(long pid) throws IOException {
        long rss = Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                .filter(l -> l.startsWith("VmRSS:"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", "")))
                .findFirst()
                .orElseThrow();
        long fds;
        try (Stream<Path> list = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            fds = list.count();
        }
        return new long[] {rss, fds};
    }

    /** Parks until {@code deadline} (System.nanoTime): the soak runs for a fixed time, it waits for no event. */
    private static void awaitNanos(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }
}
