package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code notifications/cancelled} stops a session's read that would otherwise run for tens of seconds (a probing
 * session saw cancelled searches run on and hold their slots): a {@code read_text_file} whose {@code start_line} lies
 * beyond a 64 GiB sparse file reads all of it, unless the cancellation stops it. The call answers the reference SDK's
 * {@code Request cancelled}, its audit line says {@code CANCELLED}, and the session serves on. The cancellation is
 * sent until the call answers (a cancellation that arrives before the call is registered is ignored, as the spec
 * allows), so nothing waits on a clock.
 */
class CancellationIT {

    private static final long CALL_ID = 1_000_001;

    @Test
    void a_cancelled_long_read_stops_and_the_session_serves_on(@TempDir Path dir) throws Exception {
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Path big = Files.writeString(docs.resolve("sparse.txt"), "hello\n".repeat(400));
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(64L << 30);
        }
        Files.writeString(docs.resolve("small.txt"), "x\n");
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("WORKDIR_01_ALIAS", "docs");
        env.put("WORKDIR_01_PATH", docs.toString());
        try (ServeProcess serve = ServeProcess.start(env)) {
            McpTestClient client = new McpTestClient(serve.awaitUrl(Duration.ofSeconds(60)));
            ObjectNode params = McpTestClient.JSON.createObjectNode();
            params.put("name", "read_text_file");
            params.set(
                    "arguments",
                    McpTestClient.JSON.valueToTree(
                            Map.of("workdir", "docs", "path", "sparse.txt", "start_line", 1_000_000, "max_lines", 10)));
            ObjectNode call = McpTestClient.request(CALL_ID, "tools/call", params);
            CompletableFuture<JsonNode> answer = CompletableFuture.supplyAsync(() -> {
                try {
                    return client.send(call);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            });
            ObjectNode cancelled = McpTestClient.JSON.createObjectNode();
            cancelled.put("jsonrpc", "2.0");
            cancelled.put("method", "notifications/cancelled");
            cancelled.putObject("params").put("requestId", CALL_ID).put("reason", "the user gave up");
            while (!answer.isDone()) {
                assertNull(client.send(cancelled), "a notification is answered 202 with no body");
            }

            JsonNode error = answer.join().get("error");
            assertEquals(CALL_ID, answer.join().get("id").asLong());
            assertFalse(error == null, "the read was stopped, not answered: " + answer.join());
            assertEquals(0, error.get("code").asInt());
            assertEquals("Request cancelled", error.get("message").asText());
            assertTrue(
                    serve.awaitLine(
                                    l -> l.contains("\"tool\":\"read_text_file\"")
                                            && l.contains("\"error_code\":\"CANCELLED\""),
                                    Duration.ofSeconds(30))
                            .isPresent(),
                    "the audit line says CANCELLED");
            // The session and the server serve on; a cancellation of an unknown or finished request changes nothing.
            assertNull(client.send(cancelled));
            assertEquals(
                    "file",
                    client.call("stat_file", Map.of("workdir", "docs", "path", "small.txt"))
                            .ok()
                            .get("type")
                            .asText());
            assertEquals(
                    "x\n",
                    client.call("read_text_file", Map.of("workdir", "docs", "path", "small.txt"))
                            .ok()
                            .get("content")
                            .asText());
        }
    }
}
