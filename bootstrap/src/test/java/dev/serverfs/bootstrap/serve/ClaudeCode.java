package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The real Claude Code CLI under test: npm {@code @anthropic-ai/claude-code} at the version pinned in {@code
 * tools/claude/package.json} (2.1.197, the newest that runs on Node 20; TESTING.md §3), installed by the test build
 * into {@code target/claude-code} the way {@link McpYardsticks} installs the MCP yardsticks, reused while that
 * directory holds the same package.json, never committed. Fails with a clear message when npm is missing.
 */
final class ClaudeCode {
    private static final Path SOURCE = Path.of("..", "tools", "claude", "package.json");
    private static final Path HOME = Path.of("target", "claude-code");
    private static final String MARKER = ".installed-package.json";

    private ClaudeCode() {}

    /** The native CLI binary (a hard link the package's postinstall makes); installed on first use. */
    static synchronized Path binary() throws IOException, InterruptedException {
        if (!Files.isRegularFile(SOURCE)) {
            fail("tools/claude/package.json not found from " + Path.of("").toAbsolutePath());
        }
        Files.createDirectories(HOME);
        String wanted = Files.readString(SOURCE, StandardCharsets.UTF_8);
        Path bin = HOME.resolve(Path.of("node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe"))
                .toAbsolutePath();
        Path marker = HOME.resolve("node_modules").resolve(MARKER);
        if (Files.isRegularFile(marker)
                && Files.readString(marker, StandardCharsets.UTF_8).equals(wanted)
                && Files.isExecutable(bin)) {
            return bin;
        }
        Files.copy(SOURCE, HOME.resolve("package.json"), StandardCopyOption.REPLACE_EXISTING);
        McpYardsticks.Run install;
        try {
            install = McpYardsticks.run(
                    HOME,
                    Map.of(),
                    Duration.ofMinutes(10),
                    "npm",
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--no-package-lock",
                    "--loglevel=error");
        } catch (IOException e) {
            fail("npm is not installed: the Claude runtime tests need Node.js 20+ with npm on PATH (Debian: apt-get"
                    + " install nodejs npm). " + e.getMessage());
            throw e;
        }
        if (install.exitCode() != 0 || !Files.isExecutable(bin)) {
            fail("npm install of tools/claude/package.json failed (exit " + install.exitCode() + "):\n"
                    + install.output());
        }
        Files.writeString(marker, wanted, StandardCharsets.UTF_8);
        return bin;
    }

    /** Live processes running {@code bin}: after every test there must be none (no orphan {@code claude}). */
    static List<ProcessHandle> running(Path bin) {
        String path = bin.toString();
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(path::equals).orElse(false))
                .filter(ProcessHandle::isAlive)
                .toList();
    }
}
