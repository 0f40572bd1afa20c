package dev.serverfs.bootstrap.serve;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The real Claude Code CLI under test: npm {@code @anthropic-ai/claude-code} at the version pinned in {@code
 * tools/claude/package.json}, installed by {@link PinnedCli} into {@code target/claude}. Releases after 2.1.197 declare
 * Node 22 in {@code engines}, but the CLI is a native binary that needs no Node.js: npm on Node 20 installs an exact
 * pin with a warning, and only the postinstall that puts the binary in place runs on the build's Node.
 */
final class ClaudeCode {
    private ClaudeCode() {}

    /** The native CLI binary (a hard link the package's postinstall makes); installed on first use. */
    static Path binary() throws IOException, InterruptedException {
        return PinnedCli.install(
                "claude", Path.of("node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe"));
    }

    /** Live processes running {@code bin}: after every test there must be none (no orphan {@code claude}). */
    static List<ProcessHandle> running(Path bin) {
        return PinnedCli.running(bin);
    }
}
