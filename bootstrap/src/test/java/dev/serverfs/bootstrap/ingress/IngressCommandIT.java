package dev.serverfs.bootstrap.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.bootstrap.ServerFsMain;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IngressCommandIT {

    @TempDir
    Path dir;

    @Test
    void a_wildcard_host_refuses_to_start_with_exit_code_2() throws IOException {
        Path env = dir.resolve("ingress.env");
        Files.writeString(env, "SERVERFS_FILE_INGRESS_ALLOWED_HOSTS=*.blob.core.windows.net\n");
        PrintStream original = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = ServerFsMain.run("ingress", "--env-file", env.toString());
        } finally {
            System.setErr(original);
        }
        assertEquals(2, code);
        assertTrue(
                err.toString(StandardCharsets.UTF_8)
                        .contains("ServerFS: configuration error: SERVERFS_FILE_INGRESS_ALLOWED_HOSTS"),
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void the_sidecar_process_serves_healthz_and_refuses_loopback_with_the_production_resolver() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Path env = dir.resolve("ingress.env");
        Files.writeString(
                env,
                "SERVERFS_FILE_INGRESS_ALLOWED_HOSTS=localhost,127.0.0.1\nSERVERFS_FILE_INGRESS_PORT=" + port + "\n");
        Path stderr = dir.resolve("stderr.log");
        ProcessBuilder builder = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        ServerFsMain.class.getName(),
                        "ingress",
                        "--env-file",
                        env.toString()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderr.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("SERVERFS_"));
        Process process = builder.start();
        try {
            HttpClient http = HttpClient.newBuilder()
                    .proxy(HttpClient.Builder.NO_PROXY)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            URI base = URI.create("http://127.0.0.1:" + port);
            HttpResponse<String> health = awaitHealthy(http, base.resolve("/healthz"), process);
            assertEquals(200, health.statusCode());
            assertEquals("ok\n", health.body());

            for (String url : List.of("https://localhost/secret-file", "https://127.0.0.1/secret-file")) {
                HttpResponse<String> refused = http.send(
                        HttpRequest.newBuilder(base.resolve("/fetch"))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"download_url\":\"" + url + "\",\"max_bytes\":100}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(400, refused.statusCode());
                assertEquals("{\"code\":\"FILE_INGRESS_ADDRESS_NOT_ALLOWED\"}", refused.body());
            }
            HttpResponse<String> notFound = http.send(
                    HttpRequest.newBuilder(base.resolve("/mcp")).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(404, notFound.statusCode());
        } finally {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        String log = Files.readString(stderr, StandardCharsets.UTF_8);
        assertTrue(log.contains("\"event\":\"startup\"") && log.contains("\"role\":\"ingress\""), log);
        assertTrue(log.contains("\"event\":\"shutdown\",\"role\":\"ingress\""), "a stop on SIGTERM is logged: " + log);
        assertFalse(log.contains("secret-file"), "URLs never reach the log");
    }

    /** Bounded polling with a deadline: the child needs a moment to start its JVM. */
    private static HttpResponse<String> awaitHealthy(HttpClient http, URI healthz, Process process)
            throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            if (!process.isAlive()) {
                throw new AssertionError("the sidecar exited with " + process.exitValue());
            }
            try {
                return http.send(HttpRequest.newBuilder(healthz).GET().build(), HttpResponse.BodyHandlers.ofString());
            } catch (ConnectException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the sidecar did not start listening in time");
                }
                process.waitFor(100, TimeUnit.MILLISECONDS);
            }
        }
    }
}
