package dev.serverfs.bootstrap.serve;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The real Claude Code CLI under test: npm {@code @anthropic-ai/claude-code} at the version pinned in {@code
 * tools/claude/package.json} (2.1.197, the newest that runs on Node 20; TESTING.md §3), installed by {@link
 * PinnedCli} into {@code target/claude}.
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
