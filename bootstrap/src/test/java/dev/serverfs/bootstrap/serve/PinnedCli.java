package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A provider CLI under test, installed by the test build from {@code tools/<tool>/package.json} (a pinned npm
 * version, no lockfile) into {@code target/<tool>} the way {@link McpYardsticks} installs the MCP yardsticks, reused
 * while that directory holds the same package.json, never committed. Fails with a clear message when npm is missing.
 * {@link ClaudeCode} and {@link CodexCli} are the two.
 */
final class PinnedCli {
    private static final String MARKER = ".installed-package.json";

    private PinnedCli() {}

    /** The executable at {@code binary} (relative to the install directory); installed on first use. */
    static synchronized Path install(String tool, Path binary) throws IOException, InterruptedException {
        Path source = Path.of("..", "tools", tool, "package.json");
        Path home = Path.of("target", tool);
        if (!Files.isRegularFile(source)) {
            fail("tools/" + tool + "/package.json not found from " + Path.of("").toAbsolutePath());
        }
        Files.createDirectories(home);
        String wanted = Files.readString(source, StandardCharsets.UTF_8);
        Path bin = home.resolve(binary).toAbsolutePath();
        Path marker = home.resolve("node_modules").resolve(MARKER);
        if (Files.isRegularFile(marker)
                && Files.readString(marker, StandardCharsets.UTF_8).equals(wanted)
                && Files.isExecutable(bin)) {
            return bin;
        }
        Files.copy(source, home.resolve("package.json"), StandardCopyOption.REPLACE_EXISTING);
        McpYardsticks.Run install;
        try {
            install = McpYardsticks.run(
                    home,
                    Map.of(),
                    Duration.ofMinutes(10),
                    "npm",
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--no-package-lock",
                    "--loglevel=error");
        } catch (IOException e) {
            fail("npm is not installed: the " + tool + " runtime tests need Node.js 20+ with npm on PATH (Debian:"
                    + " apt-get install nodejs npm). " + e.getMessage());
            throw e;
        }
        if (install.exitCode() != 0 || !Files.isExecutable(bin)) {
            fail("npm install of tools/" + tool + "/package.json failed (exit " + install.exitCode() + "):\n"
                    + install.output());
        }
        Files.writeString(marker, wanted, StandardCharsets.UTF_8);
        return bin;
    }

    /**
     * The version {@code tools/<tool>/package.json} pins for npm package {@code pkg}: what the runtime's probe must
     * report, so bumping a pin is a change to that file alone.
     */
    static String version(String tool, String pkg) throws IOException {
        Path source = Path.of("..", "tools", tool, "package.json");
        String pinned = new ObjectMapper()
                .readTree(Files.readString(source, StandardCharsets.UTF_8))
                .path("dependencies")
                .path(pkg)
                .asText("");
        if (pinned.isEmpty()) {
            fail("tools/" + tool + "/package.json pins no " + pkg);
        }
        return pinned;
    }

    /** Live processes running {@code bin}: after every test there must be none (no orphan provider). */
    static List<ProcessHandle> running(Path bin) {
        String path = bin.toString();
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(path::equals).orElse(false))
                .filter(ProcessHandle::isAlive)
                .toList();
    }

    /**
     * Whether {@code pid} (a provider child as the recovery guard records it: the bubblewrap process of its sandbox,
     * issue 25) is alive with a process running {@code bin} beneath it.
     */
    static boolean runsUnder(Path bin, long pid) {
        List<ProcessHandle> running = running(bin);
        return ProcessHandle.of(pid)
                .map(p -> running.stream()
                        .anyMatch(r -> r.pid() == pid || p.descendants().anyMatch(d -> d.pid() == r.pid())))
                .orElse(false);
    }

    /** After a test: no process runs {@code bin} once {@code bound} passed; any that does is killed, and fails it. */
    static void assertNoneLeft(Path bin, Duration bound) {
        List<ProcessHandle> left = awaitNone(bin, bound);
        left.forEach(ProcessHandle::destroyForcibly);
        org.junit.jupiter.api.Assertions.assertEquals(
                List.of(), left.stream().map(ProcessHandle::pid).toList(), "orphan provider processes");
    }

    /** The processes running {@code bin} still alive after a bounded wait (normally none). */
    static List<ProcessHandle> awaitNone(Path bin, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        List<ProcessHandle> left = running(bin);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            left.getFirst()
                    .onExit()
                    .completeOnTimeout(null, 200, java.util.concurrent.TimeUnit.MILLISECONDS)
                    .join();
            left = running(bin);
        }
        return left;
    }
}
