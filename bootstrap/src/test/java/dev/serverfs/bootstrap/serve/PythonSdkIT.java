package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 item 4: the official MCP Python SDK's {@code Client} in auto mode (it probes {@code server/discover} and
 * falls back to {@code initialize}) against a real {@code serve} settles on 2026-07-28, is never issued a session,
 * and calls ServerFS's tools, a refusal included. The SDK (pinned in {@code tools/python/requirements.txt}) is
 * installed with pip into a virtual environment under {@code target/python-sdk}, from pip's own configuration (a
 * local wheel mirror where the machine has one). Skipped in one line when python3, its venv module or the package
 * cannot be had, the way the container and Prometheus tests skip.
 */
class PythonSdkIT {

    private static final Path SOURCE = Path.of("..", "tools", "python");
    private static final Path HOME = Path.of("target", "python-sdk");
    private static final String MARKER = ".installed-requirements.txt";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void python_sdk_client_in_auto_mode_settles_on_2026_07_28_and_calls_tools(@TempDir Path dir) throws Exception {
        Optional<Path> python = venvPython();
        String skipped = "python-sdk: skipped: python3 with venv and pip, or the mcp package of "
                + "tools/python/requirements.txt from pip's configured index, is not available on this machine";
        if (python.isEmpty()) {
            System.out.println(skipped);
        }
        assumeTrue(python.isPresent(), skipped);
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(docs.resolve("README.md"), "hello from python\n");
        Files.writeString(dir.resolve("outside.txt"), "not for clients\n");
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_LOG_LEVEL", "INFO");
        env.put("WORKDIR_01_ALIAS", "docs");
        env.put("WORKDIR_01_PATH", docs.toString());
        try (ServeProcess serve = ServeProcess.start(env)) {
            String url = serve.awaitUrl(WAIT);
            McpYardsticks.Run run = McpYardsticks.run(
                    HOME,
                    Map.of(),
                    Duration.ofMinutes(2),
                    python.get().toString(),
                    "sdk_probe.py",
                    url,
                    "docs",
                    "README.md");
            assertEquals(0, run.exitCode(), run.output());
            String last = run.output().strip().lines().reduce((a, b) -> b).orElse("");
            JsonNode probe = new ObjectMapper().readTree(last);

            assertEquals("2026-07-28", probe.path("protocolVersion").asText(), run.output());
            assertEquals("[]", probe.get("sessionIds").toString(), "no Mcp-Session-Id was ever issued");
            assertEquals("[\"2026-07-28\"]", probe.get("versionHeaders").toString(), "no request in another era");
            assertEquals("ServerFS", probe.path("serverName").asText());
            assertTrue(probe.get("tools").toString().contains("\"read_text_file\""), probe.toString());
            assertEquals("[\"docs\"]", probe.get("workdirs").toString());
            assertFalse(probe.path("listIsError").asBoolean());
            assertFalse(probe.path("readIsError").asBoolean());
            assertEquals("hello from python\n", probe.path("readContent").asText());
            assertTrue(probe.path("refusedIsError").asBoolean(), probe.toString());
            assertTrue(probe.path("refusedText").asText().startsWith("PATH_OUTSIDE_WORKDIR: "), probe.toString());
            assertFalse(probe.toString().contains("not for clients"));
            // The calls were served statelessly: their audit lines name the era.
            assertTrue(
                    serve.awaitLine(
                                    l -> l.contains("\"tool\":\"read_text_file\"")
                                            && l.contains("\"era\":\"2026-07-28\""),
                                    Duration.ofSeconds(10))
                            .isPresent(),
                    serve.stderr().toString());
        }
    }

    /**
     * The virtual environment's python with the pinned SDK installed (once per requirements file), or empty when it
     * cannot be had on this machine.
     */
    private static synchronized Optional<Path> venvPython() throws IOException, InterruptedException {
        Path requirements = SOURCE.resolve("requirements.txt");
        Files.createDirectories(HOME);
        Files.copy(SOURCE.resolve("sdk_probe.py"), HOME.resolve("sdk_probe.py"), StandardCopyOption.REPLACE_EXISTING);
        Path python = HOME.resolve("venv/bin/python").toAbsolutePath();
        String wanted = Files.readString(requirements, StandardCharsets.UTF_8);
        Path marker = HOME.resolve(MARKER);
        if (Files.isRegularFile(marker)
                && Files.isExecutable(python)
                && Files.readString(marker, StandardCharsets.UTF_8).equals(wanted)) {
            return Optional.of(python);
        }
        try {
            if (McpYardsticks.run(HOME, Map.of(), Duration.ofMinutes(2), "python3", "-m", "venv", "--clear", "venv")
                            .exitCode()
                    != 0) {
                return Optional.empty();
            }
        } catch (IOException e) {
            return Optional.empty(); // no python3 on the PATH
        }
        // pip's own configuration says where packages come from; no retries, so a machine without them skips fast.
        McpYardsticks.Run install = McpYardsticks.run(
                HOME,
                Map.of(),
                Duration.ofMinutes(5),
                python.toString(),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--retries",
                "0",
                "--timeout",
                "20",
                "-r",
                requirements.toAbsolutePath().toString());
        if (install.exitCode() != 0) {
            return Optional.empty();
        }
        Files.writeString(marker, wanted, StandardCharsets.UTF_8);
        return Optional.of(python);
    }
}
