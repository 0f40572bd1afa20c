package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.application.port.out.FileIngress;
import dev.serverfs.application.port.out.WriterLeases.WriterLease;
import dev.serverfs.application.testing.InMemoryFileIngress;
import dev.serverfs.bootstrap.config.ConfigLoader;
import dev.serverfs.bootstrap.config.ServerFsConfig;
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
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binary tools end to end over real HTTP on an in-process {@code serve} (reference §1.4, §2.14-§2.15, v0.5 §5,
 * §9): round trips through the official TypeScript SDK client, the request-body limit derived from the binary
 * limit, and an Agent writer lease taken while the ingress fetch runs.
 */
class BinaryTransferIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long LIMIT = 8L * 1024 * 1024;
    private static final String ACCEPT = "application/json, text/event-stream";

    @TempDir
    Path dir;

    private Map<String, String> env(Path root) throws IOException {
        int port = ServeProcess.freePort();
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(port));
        env.put("WORKDIR_01_ALIAS", "bin");
        env.put("WORKDIR_01_PATH", root.toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        env.put("WORKDIR_01_BINARY_TRANSFER_ENABLED", "true");
        return env;
    }

    private ServeWiring start(Map<String, String> env, Optional<? extends FileIngress> ingress) throws Exception {
        ServerFsConfig config = ConfigLoader.load(env, Optional.empty());
        return ServeWiring.start(config, ingress);
    }

    @Test
    void sdk_client_round_trips_exact_bytes_and_is_refused_over_the_limit_and_with_a_stale_revision() throws Exception {
        Path root = Files.createDirectories(dir.resolve("bin"));
        Path tools = McpYardsticks.install();
        try (ServeWiring serve = start(env(root), Optional.empty())) {
            String url = "http://127.0.0.1:" + serve.server().port() + "/mcp";
            McpYardsticks.Run run = McpYardsticks.run(
                    tools,
                    Map.of(),
                    Duration.ofMinutes(3),
                    "node",
                    "binary-roundtrip.mjs",
                    url,
                    "bin",
                    "0",
                    "1",
                    Long.toString(5L * 1024 * 1024),
                    Long.toString(LIMIT),
                    Long.toString(LIMIT + 1),
                    "--stale",
                    "rt-1.bin");
            assertEquals(0, run.exitCode(), run.output());
            JsonNode out = JSON.readTree(run.output());
            for (int i = 0; i < 4; i++) {
                JsonNode r = out.at("/results/" + i);
                assertTrue(r.has("size") && r.has("upload"), out.toString());
                long size = r.get("size").longValue();
                String sha = r.get("sha256").textValue();
                assertFalse(r.at("/upload/isError").booleanValue(), r.toString());
                JsonNode up = r.at("/upload/structured");
                assertEquals(size, up.get("bytes_written").longValue());
                assertEquals(sha, up.get("sha256").textValue());
                assertTrue(up.get("created").booleanValue());
                assertFalse(up.get("replaced").booleanValue());
                assertTrue(up.get("revision_before").isNull(), up.toString());
                byte[] onDisk = Files.readAllBytes(root.resolve("rt-" + size + ".bin"));
                assertEquals(size, onDisk.length);
                assertEquals(sha, sha256(onDisk));
                JsonNode down = r.get("download");
                assertFalse(down.get("isError").booleanValue(), down.toString());
                assertEquals("resource", down.get("contentType").textValue());
                assertEquals(
                        "serverfs://bin/rt-" + size + ".bin", down.get("uri").textValue());
                assertEquals("application/octet-stream", down.get("mimeType").textValue());
                assertEquals(size, down.get("blobSize").longValue());
                assertEquals(sha, down.get("blobSha256").textValue());
                assertEquals(size, down.at("/structured/size").longValue());
                assertEquals(sha, down.at("/structured/sha256").textValue());
                assertEquals(up.get("revision"), down.at("/structured/revision"));
            }
            JsonNode over = out.at("/results/4");
            assertTrue(over.at("/upload/isError").booleanValue(), over.toString());
            assertTrue(
                    over.at("/upload/text").textValue().startsWith("BINARY_PAYLOAD_TOO_LARGE: bin:"), over.toString());
            assertFalse(Files.exists(root.resolve("rt-" + (LIMIT + 1) + ".bin")));
            assertTrue(out.at("/stale/isError").booleanValue(), out.toString());
            assertTrue(out.at("/stale/text").textValue().startsWith("REVISION_CONFLICT:"), out.toString());
            assertEquals(1, Files.size(root.resolve("rt-1.bin")), "the stale overwrite changed nothing");
        }
    }

    @Test
    void an_agent_lease_taken_during_the_ingress_fetch_makes_publication_fail_busy_and_writes_nothing()
            throws Exception {
        Path root = Files.createDirectories(dir.resolve("bin"));
        Path locks = dir.resolve("locks");
        FlockWriterLeases agent = new FlockWriterLeases(locks);
        agent.prepare();
        Map<String, String> env = env(root);
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_LOCK_DIR", locks.toString());
        AtomicReference<WriterLease> held = new AtomicReference<>();
        InMemoryFileIngress ingress = new InMemoryFileIngress("files.example")
                .publish("https://files.example/a.bin", new byte[] {1, 2, 3})
                .duringFetch(() -> held.set(agent.acquire(1)));
        try (ServeWiring serve = start(env, Optional.of(ingress))) {
            Client client = new Client(serve.server().port());
            String session = client.initialize();
            String call = """
                    {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"upload_binary_file","arguments":\
                    {"workdir":"bin","path":"a.bin","file":{"download_url":"https://files.example/a.bin",\
                    "file_id":"file-123","file_name":"a.bin"}}}}""";

            JsonNode result = client.post(call, session).get("result");

            assertTrue(held.get() != null, "the hook took the lease during the fetch");
            assertTrue(result.get("isError").booleanValue(), result.toString());
            assertEquals(
                    "WORKDIR_BUSY: bin:a.bin — bin has an active Agent writer",
                    result.at("/content/0/text").textValue());
            assertFalse(Files.exists(root.resolve("a.bin")));
            try (Stream<Path> left = Files.list(root)) {
                assertEquals(0, left.count(), "no temp file either");
            }
            held.get().close();
            ingress.duringFetch(() -> {});
            JsonNode retried =
                    client.post(call.replace("\"id\":2", "\"id\":3"), session).get("result");
            assertFalse(retried.get("isError").booleanValue(), "the lease was the only obstacle: " + retried);
            assertEquals(3, Files.size(root.resolve("a.bin")));
        }
    }

    @Test
    void overwrite_replaces_exactly_one_regular_file_at_its_revision_and_keeps_its_mode() throws Exception {
        Path root = Files.createDirectories(dir.resolve("bin"));
        Path small = Files.createDirectories(dir.resolve("small"));
        Files.write(root.resolve("a.bin"), new byte[] {1});
        Files.setPosixFilePermissions(root.resolve("a.bin"), PosixFilePermissions.fromString("rw-r-----"));
        Files.write(root.resolve("linked.bin"), new byte[] {1});
        Files.createLink(root.resolve("second-link.bin"), root.resolve("linked.bin"));
        Files.createDirectories(root.resolve("dir"));
        Files.write(small.resolve("five.bin"), new byte[5]);
        Map<String, String> env = env(root);
        env.put("WORKDIR_02_ALIAS", "small");
        env.put("WORKDIR_02_PATH", small.toString());
        env.put("WORKDIR_02_BINARY_TRANSFER_ENABLED", "true");
        env.put("WORKDIR_02_MAX_BINARY_TRANSFER_BYTES", "4");
        try (ServeWiring serve = start(env, Optional.empty())) {
            Client client = new Client(serve.server().port());
            String session = client.initialize();
            String revision = client.call(session, "stat_file", "{\"workdir\":\"bin\",\"path\":\"a.bin\"}")
                    .at("/structuredContent/revision")
                    .textValue();

            JsonNode replaced = client.call(
                    session,
                    "upload_binary_file",
                    "{\"workdir\":\"bin\",\"path\":\"a.bin\",\"data_base64\":\"AgME\",\"overwrite\":true,"
                            + "\"expected_revision\":\"" + revision + "\"}");
            JsonNode exists = client.call(
                    session, "upload_binary_file", "{\"workdir\":\"bin\",\"path\":\"a.bin\",\"data_base64\":\"\"}");
            JsonNode missing = client.call(
                    session,
                    "upload_binary_file",
                    "{\"workdir\":\"bin\",\"path\":\"new.bin\",\"data_base64\":\"\",\"overwrite\":true,"
                            + "\"expected_revision\":\"" + revision + "\"}");
            String linkedRevision = client.call(session, "stat_file", "{\"workdir\":\"bin\",\"path\":\"linked.bin\"}")
                    .at("/structuredContent/revision")
                    .textValue();
            JsonNode linked = client.call(
                    session,
                    "upload_binary_file",
                    "{\"workdir\":\"bin\",\"path\":\"linked.bin\",\"data_base64\":\"\",\"overwrite\":true,"
                            + "\"expected_revision\":\"" + linkedRevision + "\"}");
            JsonNode directory = client.call(session, "download_binary_file", "{\"workdir\":\"bin\",\"path\":\"dir\"}");
            JsonNode tooLarge =
                    client.call(session, "download_binary_file", "{\"workdir\":\"small\",\"path\":\"five.bin\"}");

            assertFalse(replaced.get("isError").booleanValue(), replaced.toString());
            JsonNode out = replaced.get("structuredContent");
            assertFalse(out.get("created").booleanValue());
            assertTrue(out.get("replaced").booleanValue());
            assertEquals(revision, out.get("revision_before").textValue());
            assertEquals(3, out.get("bytes_written").intValue());
            assertEquals("[2, 3, 4]", java.util.Arrays.toString(Files.readAllBytes(root.resolve("a.bin"))));
            assertEquals(
                    "rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("a.bin"))));
            assertCode("PATH_ALREADY_EXISTS", exists);
            assertCode("PATH_NOT_FOUND", missing);
            assertCode("MULTIPLE_HARDLINKS_NOT_SUPPORTED", linked);
            assertEquals(1, Files.size(root.resolve("linked.bin")));
            assertCode("NOT_A_FILE", directory);
            assertCode("BINARY_FILE_TOO_LARGE", tooLarge);
        }
    }

    private static void assertCode(String code, JsonNode result) {
        assertTrue(result.get("isError").booleanValue(), result.toString());
        assertTrue(result.at("/content/0/text").textValue().startsWith(code + ": "), result.toString());
    }

    @Test
    void a_file_source_is_refused_when_ingress_is_disabled() throws Exception {
        Path root = Files.createDirectories(dir.resolve("bin"));
        try (ServeWiring serve = start(env(root), Optional.empty())) {
            Client client = new Client(serve.server().port());
            String session = client.initialize();
            JsonNode listed = client.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", session);
            JsonNode result = client.post("""
                    {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"upload_binary_file","arguments":\
                    {"workdir":"bin","path":"a.bin","file":{"download_url":"https://files.example/a.bin",\
                    "file_id":"file-123"}}}}""", session).get("result");

            assertTrue(listed.toString().contains("\"upload_binary_file\""), listed.toString());
            assertFalse(listed.toString().contains("openai/fileParams"), listed.toString());
            assertTrue(result.get("isError").booleanValue(), result.toString());
            assertTrue(result.at("/content/0/text").textValue().startsWith("FILE_INGRESS_DISABLED: bin:a.bin"));
            assertFalse(Files.exists(root.resolve("a.bin")));
        }
    }

    @Test
    void the_transport_accepts_a_body_of_exactly_the_derived_limit_and_refuses_one_byte_more_chunked_or_not()
            throws Exception {
        Path root = Files.createDirectories(dir.resolve("bin"));
        long bodyLimit = 4 * ((LIMIT + 2) / 3) + 65536;
        try (ServeWiring serve = start(env(root), Optional.empty())) {
            Client client = new Client(serve.server().port());
            String session = client.initialize();
            String ping = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}";
            String exact = ping + " ".repeat((int) (bodyLimit - ping.length()));
            String over = exact + " ";

            String plain = client.raw(exact, session, false);
            assertEquals(200, status(plain), plain.substring(0, Math.min(600, plain.length())));
            String chunked = client.raw(exact, session, true);
            assertEquals(200, status(chunked), chunked.substring(0, Math.min(600, chunked.length())));
            assertEquals(413, status(client.raw(over, session, false)));
            assertEquals(413, status(client.raw(over, session, true)));
        }
    }

    private static int status(String rawResponse) {
        return Integer.parseInt(rawResponse.substring(9, 12));
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    /** Minimal MCP over HTTP: JSON responses, one session. */
    private record Client(int port, HttpClient http) {

        Client(int port) {
            this(
                    port,
                    HttpClient.newBuilder()
                            .connectTimeout(Duration.ofSeconds(5))
                            .build());
        }

        String initialize() throws Exception {
            HttpResponse<String> response = send("""
                    {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
                    "capabilities":{},"clientInfo":{"name":"test","version":"1"}}}""", Optional.empty());
            String id = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
            send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", Optional.of(id));
            return id;
        }

        JsonNode call(String session, String tool, String arguments) throws Exception {
            return post(
                            "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                                    + "\",\"arguments\":" + arguments + "}}",
                            session)
                    .get("result");
        }

        JsonNode post(String body, String session) throws Exception {
            HttpResponse<String> response = send(body, Optional.of(session));
            assertEquals(200, response.statusCode(), response.body());
            return JSON.readTree(response.body());
        }

        private HttpResponse<String> send(String body, Optional<String> session) throws Exception {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Accept", ACCEPT)
                    .header("Content-Type", "application/json")
                    .header("MCP-Protocol-Version", "2025-11-25")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            session.ifPresent(id -> request.header("Mcp-Session-Id", id));
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }

        /** One raw HTTP/1.1 POST with the exact body, declared by Content-Length or sent in 64 KiB chunks. */
        String raw(String body, String session, boolean chunked) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAccept: " + ACCEPT
                    + "\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: "
                    + session + "\r\n"
                    + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + bytes.length + "\r\n")
                    + "Connection: close\r\n\r\n";
            request.writeBytes(head.getBytes(StandardCharsets.ISO_8859_1));
            if (chunked) {
                for (int off = 0; off < bytes.length; off += 65536) {
                    int n = Math.min(65536, bytes.length - off);
                    request.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    request.write(bytes, off, n);
                    request.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
                }
                request.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            } else {
                request.writeBytes(bytes);
            }
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(30_000);
                OutputStream out = socket.getOutputStream();
                try {
                    out.write(request.toByteArray());
                    out.flush();
                    socket.shutdownOutput();
                } catch (IOException refusedEarly) {
                    // The server may answer 413 and close before the whole body is sent; the answer is still there.
                }
                InputStream in = socket.getInputStream();
                ByteArrayOutputStream response = new ByteArrayOutputStream();
                in.transferTo(response);
                return response.toString(StandardCharsets.ISO_8859_1);
            }
        }
    }
}
