package dev.serverfs.bootstrap.serve;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The real Codex CLI under test: npm {@code @openai/codex} at the version pinned in {@code tools/codex/package.json}
 * (PROVIDERS.md Part 1 verified 0.169.0; 0.171.0 has the same app-server requests and answers the adapter uses),
 * installed by {@link PinnedCli} into {@code target/codex}. The tests exec the native static musl binary of the
 * platform package directly (the npm wrapper only {@code execve}s it), so the orphan check sees the very process
 * {@code serve} started.
 */
final class CodexCli {
    private CodexCli() {}

    static Path binary() throws IOException, InterruptedException {
        return PinnedCli.install(
                "codex",
                Path.of(
                        "node_modules",
                        "@openai",
                        "codex-linux-x64",
                        "vendor",
                        "x86_64-unknown-linux-musl",
                        "bin",
                        "codex"));
    }
}
